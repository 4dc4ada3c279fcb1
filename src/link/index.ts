/** The signed prescription link (SPEC.md §3) and its key ring. */
export { buildLink } from './build.js';
export type { BuildLinkInput, LinkSigner } from './build.js';
export { formatIssuer } from './issuer.js';
export { CLOCK_SKEW_SECONDS } from './key-window.js';
export type { Ed25519PublicJwk } from './key-material.js';
export { LinkKeyring } from './keyring.js';
export type { LinkKeyInfo, OpenLinkKeyringOptions, PublicLinkKey } from './keyring.js';
export { KeyringError } from './keyring-error.js';
export type { KeyringErrorReason } from './keyring-error.js';
export { MAX_ISSUED_AT, MAX_ISSUER_LENGTH, MAX_LINK_LENGTH } from './limits.js';
export { LINK_ERROR_REASONS, LinkError } from './link-error.js';
export type { LinkErrorReason } from './link-error.js';
export { parseLink } from './parse.js';
export type { ParsedLink } from './parse.js';
export type { RingLockOptions } from './ring-lock.js';
export { verifyLinkSignature } from './verify.js';
export type { LinkVerificationKeys } from './verify.js';
