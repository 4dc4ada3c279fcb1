/**
 * The only key and signature algorithms of the ledger PKI (SPEC.md §7): ECDSA on P-384 with
 * SHA-384, for the root CA, the leaves and the event signatures alike.
 */

/** Key generation and import parameters of every ledger key. */
export const P384_KEY = Object.freeze({ name: 'ECDSA', namedCurve: 'P-384' } as const);

/** Certificate signing algorithm (`ecdsa-with-SHA384`). */
export const CERT_SIGNING_ALGORITHM = Object.freeze({
  name: 'ECDSA',
  namedCurve: 'P-384',
  hash: 'SHA-384',
} as const);

/** Node's name for P-384 in `KeyObject.asymmetricKeyDetails`. */
export const P384_NODE_CURVE = 'secp384r1';
