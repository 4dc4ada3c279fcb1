export { PrescriptionService } from './prescription-service.js';
export type { ServiceDeps } from './deps.js';
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
export { formatIssuedAt } from './issued-at.js';
export { chainFacts } from './chain-state.js';
