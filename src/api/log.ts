/**
 * The transparency log's read-only resources (c2sp.org/tlog-tiles): the signed checkpoint, the
 * log's verifier key, Merkle tree tiles and entry bundles. Not JSON: text and bytes as the spec
 * fixes them.
 */
import Type from 'typebox';

/** `GET /log/checkpoint`: the newest signed checkpoint note. */
export const LogCheckpointNote = Type.String({
  $id: 'LogCheckpointNote',
  contentMediaType: 'text/plain',
  description:
    'The newest checkpoint (c2sp.org/tlog-checkpoint) as a signed note (c2sp.org/signed-note): ' +
    'origin, tree size and base64 root hash, a blank line, the log’s Ed25519 signature line and ' +
    'the witnesses’ cosignature lines (c2sp.org/tlog-cosignature).',
});

/** `GET /log/key`: the log's verifier key. */
export const LogVerifierKey = Type.String({
  $id: 'LogVerifierKey',
  contentMediaType: 'text/plain',
  description:
    'The verifier key of the log’s checkpoints in c2sp.org/signed-note vkey form ' +
    '(`<origin>+<key ID>+<base64 key>`), followed by a newline.',
});

/** `GET /log/tile/...`: a tile of hashes or an entry bundle. */
export const LogTile = Type.String({
  $id: 'LogTile',
  contentMediaType: 'application/octet-stream',
  description:
    'A Merkle tree tile (256, or for a partial tile `W`, SHA-256 hashes of 32 bytes) or an entry ' +
    'bundle (each entry a big-endian uint16 length and the 32 raw bytes of a ledger event’s hash).',
});

/** The tile path after `/log/tile/`. */
export const LogTileParams = Type.Object(
  {
    '*': Type.String({
      description:
        '`<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`: N in 3-digit elements, all but the last ' +
        'prefixed `x` (1234067 is `x001/x234/067`); W, 1 to 255, for a partial tile.',
    }),
  },
  { additionalProperties: false },
);
