export { PrescriptionService } from './prescription-service.js';
export { requireRole } from './guards.js';
export type { ServiceDeps } from './deps.js';
export type { CreateOptions } from './create.js';
export type {
  CallContext,
  CreateResult,
  DispenseItem,
  EventView,
  PartialDispensation,
  TamperingDetectionResult,
  VerifyFull,
  VerifyShort,
} from './types.js';
export { IssuedAtFormat } from './issued-at.js';
export { TermsVerifier } from './terms.js';
export { VerificationCache } from './verification-cache.js';
export type { VerifyOutcome } from './verification-cache.js';
export { SEAL_KEY_BYTES, VerifiedHeads } from './verified-heads.js';
export { chainFacts } from './chain-state.js';
