/**
 * The on-disk form of the link key ring, one JSON file:
 * `{"format":"erx-link-keyring/1","keys":[{kid, createdAt, retiredAt, publicKey, privateKey?}]}`,
 * keys oldest first, the last one current. Reading checks every rule, so a ring that was edited
 * by hand or damaged is refused as a whole instead of half-trusted.
 */
import { Ajv } from 'ajv';
import { importPrivateKey, importPublicKey, thumbprint } from './key-material.js';
import type { KeyRecord } from './key-material.js';
import { KeyringError } from './keyring-error.js';
import { MAX_ISSUED_AT } from './limits.js';

const FORMAT = 'erx-link-keyring/1';

interface RingFile {
  format: string;
  keys: KeyRecord[];
}

const BASE64URL_32_BYTES = '^[A-Za-z0-9_-]{43}$';
const time = { type: 'integer', minimum: 0, maximum: MAX_ISSUED_AT };

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'keys'],
  properties: {
    format: { type: 'string', const: FORMAT },
    keys: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kid', 'createdAt', 'retiredAt', 'publicKey'],
        properties: {
          kid: { type: 'string', pattern: BASE64URL_32_BYTES },
          createdAt: time,
          retiredAt: { ...time, type: ['integer', 'null'] },
          publicKey: { type: 'string', pattern: BASE64URL_32_BYTES },
          privateKey: { type: 'string', pattern: BASE64URL_32_BYTES },
        },
      },
    },
  },
};

// `type: ['integer', 'null']` is plain JSON Schema; Ajv's strict mode wants it allowed by name.
const validateShape = new Ajv({ strict: true, allowUnionTypes: true }).compile<RingFile>(schema);

function corrupt(why: unknown): KeyringError {
  return new KeyringError('corrupt', why);
}

// The rules the schema cannot say: one current key, last; windows in order; kids unique and
// derived from their key; a private key only for the current key, and the right one.
function checkKeys(keys: readonly KeyRecord[]): void {
  const kids = new Set<string>();
  keys.forEach((key, index) => {
    const last = index === keys.length - 1;
    if (kids.has(key.kid)) throw corrupt(`duplicate kid ${key.kid}`);
    kids.add(key.kid);
    if (key.kid !== thumbprint(key.publicKey))
      throw corrupt(`kid ${key.kid} is not its thumbprint`);
    if (last !== (key.retiredAt === null)) throw corrupt('only the last key may be current');
    if (key.retiredAt !== null && key.retiredAt < key.createdAt)
      throw corrupt('retired before created');
    const previous = keys[index - 1];
    if (previous && previous.createdAt > key.createdAt) throw corrupt('keys out of order');
    if (last !== (key.privateKey !== undefined))
      throw corrupt('private key only for the current key');
    try {
      importPublicKey(key.publicKey);
      if (key.privateKey !== undefined) importPrivateKey(key.publicKey, key.privateKey);
    } catch (error) {
      throw corrupt(`key ${key.kid}: ${String(error)}`);
    }
  });
}

/** Reads and checks a ring file's text, throwing `KeyringError` `corrupt` on any fault. */
export function parseRing(text: string): KeyRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt('not JSON');
  }
  if (!validateShape(value)) throw corrupt(validateShape.errors);
  checkKeys(value.keys);
  return value.keys;
}

/** Serialises a ring (checked first, so a faulty ring is never written). */
export function serializeRing(keys: readonly KeyRecord[]): string {
  checkKeys(keys);
  const file: RingFile = { format: FORMAT, keys: [...keys] };
  return `${JSON.stringify(file, null, 2)}\n`;
}
