/**
 * The pepper: a key kept outside the database (a file in the data directory, or `ERX_PEPPER`) that
 * binds what the token service stores. Stored token hashes and client secret hashes are MACs under
 * it, so a row written by someone who can write the database but not read this key authenticates
 * nobody (docs/security.md).
 */
import { createHmac } from 'node:crypto';

/** The shortest pepper accepted, in bytes. */
export const MIN_PEPPER_BYTES = 32;

/** One pepper; {@link Pepper.mac} is all it does, so the key itself never leaves it. */
export class Pepper {
  readonly #key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length < MIN_PEPPER_BYTES) {
      throw new RangeError(`a pepper is at least ${MIN_PEPPER_BYTES} bytes`);
    }
    this.#key = Buffer.from(key);
  }

  /**
   * HMAC-SHA-256 under the pepper of `parts` for `purpose`. Each part is length-prefixed and the
   * purpose comes first, so no two different inputs (nor two purposes) share a MAC.
   */
  mac(purpose: string, parts: readonly (string | Uint8Array)[]): Buffer {
    const hmac = createHmac('sha256', this.#key).update(`erx ${purpose}\u0000`, 'utf8');
    const length = Buffer.alloc(4);
    for (const part of parts) {
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
      length.writeUInt32BE(bytes.length);
      hmac.update(length).update(bytes);
    }
    return hmac.digest();
  }
}
