export {
  ErrorBody,
  ErrorCause,
  ErrorCode,
  Trace,
  Violation,
  alreadyDispensedExample,
} from './errors.js';
export { DispenseBody, DispenseItem, FORCE_PATTERN, ForceQuery, readForce } from './dispense.js';
export { EventAnswer, EventType, EventView, PartialDispensation } from './events.js';
export { EventStream, FEED_PAGE, FeedItem, FeedPage, FeedQuery, StreamQuery } from './feed.js';
export {
  MedicamentStatus,
  TamperingDetectionResult,
  VerifyBody,
  VerifyFull,
  VerifyResult,
  VerifyShort,
} from './verify.js';
export { PackagesLeft, PrescriptionStatus, StatusResult } from './status.js';
export {
  CreateBody,
  CreateQuery,
  CreateResult,
  Prescription,
  QrCodePng,
  QrCodeSvg,
} from './create.js';
export {
  ActiveTokenInfo,
  InactiveTokenInfo,
  TokenForm,
  TokenInfo,
  TokenInfoForm,
  TokenResult,
} from './tokens.js';
export { EventParams, IdParams, ReasonBody, ReasonQuery } from './params.js';
export { HealthStatus } from './ops.js';
export {
  LIST_STATES,
  ListedPrescription,
  PrescriptionList,
  PrescriptionListQuery,
} from './prescription-list.js';
export type { ListState } from './prescription-list.js';
export {
  CATALOG_GTINS_MAX,
  CATALOG_LIMIT,
  CATALOG_QUERY_LENGTH,
  CatalogArticle,
  CatalogArticles,
  CatalogNamesQuery,
  CatalogSearchQuery,
} from './catalog.js';
export { PracticeAddress, PrescriberProfile, SignedInClient } from './me.js';
export { LogCheckpointNote, LogTile, LogTileParams, LogVerifierKey } from './log.js';
export { NAMED_SCHEMAS, ref, schemaId, sharedSchemas } from './shared-schemas.js';
