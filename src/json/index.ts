export { JsonError, MAX_JSON_DEPTH, checkForbiddenKeys, parseJsonSafe } from './parse-safe.js';
export type { JsonErrorReason, ParseJsonOptions } from './parse-safe.js';
export { checkDepth } from './check-depth.js';
export { deepFreeze } from './deep-freeze.js';
