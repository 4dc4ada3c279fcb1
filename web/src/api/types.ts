/**
 * The service's answers as the page reads them (seed §2.3–2.6, §7; SPEC.md §5–6): the types of
 * `src/api`, derived from the schemas the service answers with, so page and service cannot drift.
 */
import type {
  ActiveTokenInfo,
  PrescriptionStatus,
  VerifyFull,
  VerifyShort,
} from '../../../src/api/index.js';

export type { NamedCauseCode } from '../../../src/errors.js';

export type {
  CatalogArticle,
  CreateResult,
  DispenseItem,
  ErrorBody,
  ErrorCode,
  EventView as LedgerEvent,
  ListedPrescription,
  ListState,
  PartialDispensation,
  PrescriptionList,
  TokenInfo,
  TokenResult,
  Violation,
} from '../../../src/api/index.js';

/**
 * The verify answer as the page holds it: the short fields always, the transaction fields when the
 * call carried a token (seed §2.3), so one screen reads both variants.
 */
export type VerifyResult = VerifyShort & Partial<Omit<VerifyFull, keyof VerifyShort>>;

/**
 * The status answer for the holder of a link: the short fields always, the validity end and the
 * packages left when the link is genuine (SPEC.md §10 "Who sees what").
 */
export type StatusResult = VerifyShort & Partial<Omit<PrescriptionStatus, keyof VerifyShort>>;

/** The fields of an active token the page reads (seed §2.6 plus `scope` and `sub`). */
export type TokenIdentity = Partial<Pick<ActiveTokenInfo, 'name' | 'scope' | 'sub'>>;
