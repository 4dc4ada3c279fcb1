/**
 * The transparency log's Ed25519 key: a 32-byte seed in a file of the data directory, beside the
 * other keys and never in the database (`./key-file.ts`), made at first start. Whoever holds it can
 * sign checkpoints; what that can and cannot do is in docs/transparency.md.
 */
import { ed25519NoteSigner, ed25519PrivateKeyFromSeed, ed25519VerifierKey } from '../tlog/index.js';
import type { LogIdentity } from '../transparency/grow-log.js';
import { openKeyFile } from './key-file.js';

/** The file name of the log key's seed in the data directory. */
export const LOG_KEY_FILE = 'transparency-log.key';

/** The log's identity for `origin`: its signer, and the verifier key that checks it (C2SP note form). */
export function openLogIdentity(dataDir: string, origin: string): LogIdentity {
  const privateKey = ed25519PrivateKeyFromSeed(openKeyFile(dataDir, LOG_KEY_FILE, 32));
  return {
    origin,
    signer: ed25519NoteSigner(origin, privateKey),
    verifierKey: ed25519VerifierKey(origin, privateKey),
  };
}
