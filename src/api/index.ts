export {
  ErrorBody,
  ErrorCause,
  ErrorCode,
  OAUTH_ERRORS,
  TokenErrorBody,
  Trace,
  Violation,
  alreadyDispensedExample,
} from './errors.js';
export { DispenseBody, DispenseItem, FORCE_PATTERN, ForceQuery, readForce } from './dispense.js';
export { EventType, EventView, PartialDispensation } from './events.js';
export {
  EventStream,
  EventStreamMessage,
  FEED_PAGE,
  FeedItem,
  FeedPage,
  FeedQuery,
  StreamQuery,
} from './feed.js';
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
  BODIES_JUDGED_BY_THE_SERVICE,
  Chmed23aPrescription,
  CreateBody,
  CreateQuery,
  CreateResult,
  Prescription,
  QrCodePng,
  QrCodeSvg,
  TransmissionString,
} from './create.js';
export {
  ActiveTokenInfo,
  InactiveTokenInfo,
  TokenForm,
  TokenInfo,
  TokenInfoForm,
  TokenResult,
} from './tokens.js';
export {
  EventParams,
  IdParams,
  REASON_MAX_LENGTH,
  Reason,
  ReasonBody,
  ReasonQuery,
} from './params.js';
export { HealthStatus } from './ops.js';
export {
  LIST_STATES,
  ListedPrescription,
  PrescriptionList,
  PrescriptionListQuery,
} from './prescription-list.js';
export type { ListState } from './prescription-list.js';
export type { OAuthError } from './errors.js';
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
