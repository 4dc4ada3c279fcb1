export { decodeBase64, encodeBase64 } from './base64.js';
export { checkConsistency } from './check-consistency.js';
export { checkInclusion, rootFromInclusionProof } from './check-inclusion.js';
export { formatCheckpoint, parseCheckpoint } from './checkpoint.js';
export type { Checkpoint } from './checkpoint.js';
export {
  cosignatureMessage,
  cosignatureTimes,
  cosignatureTimestamp,
  cosignerVerifierKey,
  ed25519CosignatureVerifier,
  ed25519Cosigner,
} from './cosignature.js';
export {
  ed25519NoteSigner,
  ed25519NoteVerifier,
  ed25519PrivateKeyFromSeed,
  ed25519PublicKey,
  ed25519RawPublicKey,
  ed25519VerifierKey,
} from './ed25519-note.js';
export { decodeEntryBundle, encodeEntryBundle, eventEntryBundle } from './entry-bundle.js';
export {
  emptyTreeHash,
  eventLeaf,
  eventLeafHash,
  HASH_SIZE,
  hashesEqual,
  isHash,
  leafHash,
  nodeHash,
} from './hash.js';
export { readHashes } from './hash-reader.js';
export { RightEdge } from './right-edge.js';
export type { HashReader } from './hash-reader.js';
export {
  formatNote,
  MAX_NOTE_SIGNATURES,
  openNote,
  parseNote,
  signNote,
  signNoteNow,
} from './note.js';
export type {
  InstantNoteSigner,
  NoteSignature,
  NoteSigner,
  NoteVerifier,
  OpenedNote,
  ParsedNote,
} from './note.js';
export {
  formatVerifierKey,
  isKeyName,
  noteKeyId,
  parseVerifierKey,
  SIGNATURE_TYPE,
} from './note-key.js';
export type { VerifierKey } from './note-key.js';
export { openCheckpoint } from './open-checkpoint.js';
export type { CheckpointPolicy, OpenedCheckpoint } from './open-checkpoint.js';
export { proveConsistency } from './prove-consistency.js';
export { proveInclusion } from './prove-inclusion.js';
export { signCheckpoint } from './sign-checkpoint.js';
export { splitStoredHashIndex, storedHashCount, storedHashIndex } from './stored-hash-index.js';
export { storedHashesForRecord } from './stored-hashes.js';
export { storedHashesForRecords } from './stored-hashes-batch.js';
export { entryBundlePath, parseTilePath, TILE_HEIGHT, TILE_WIDTH, tilePath } from './tile.js';
export type { Tile, TileAddress } from './tile.js';
export { readTile, tileHashIndexes, tileInTree, tilesOfTree, tilesToPublish } from './tiles.js';
export { TLOG_ERROR_REASONS, TlogError } from './tlog-error.js';
export type { TlogErrorReason } from './tlog-error.js';
export { formatTlogProof, parseTlogProof, TLOG_PROOF_HEADER } from './tlog-proof.js';
export type { TlogProof } from './tlog-proof.js';
export { treeHash } from './tree-hash.js';
export { verifyTlogProof } from './verify-tlog-proof.js';
export type { CheckpointMemo, VerifiedTlogProof } from './verify-tlog-proof.js';
