/**
 * Size and range limits of the prescription link (SPEC.md §3, §9). One place, so that
 * `buildLink` never issues a link that `parseLink` would refuse.
 */

/**
 * Longest link accepted, in UTF-16 code units, after nothing but the length of the raw input.
 * Request bodies are at most 64 KiB (SPEC.md §9) and a UTF-8 byte sequence never decodes to more
 * code units than it has bytes, so no body the service accepts is refused for length alone.
 */
export const MAX_LINK_LENGTH = 65_536;

/** Longest decoded issuer label (`i`), in UTF-16 code units: a display name and an actor id. */
export const MAX_ISSUER_LENGTH = 512;

/** Largest issue time `t` (unix seconds): ten decimal digits, i.e. up to the year 2286. */
export const MAX_ISSUED_AT = 9_999_999_999;
