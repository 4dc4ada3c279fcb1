/**
 * The prescription service's façade: what the rest of erx imports of `service/`. Behind it the
 * service is split into rooms by job (docs/decisions.md "The service's rooms"):
 * `operations/` (one file per call: create, dispense, cancel, revoke, lock, verify, status, the
 * prescriber's list, audit, the terms migration), `append/` (the one append path: decide under
 * the chain read, idempotency, loading a chain for a decision), `rules/` (pure rules: the fold of a
 * chain into its state, the rules of state, a dispensation's checks, cancels, quantities, terms,
 * the role guard), `verification/` (the chain and link checks and what they remember),
 * `feed/` (the event feed, its cursors and its clock) and `view/` (events and times as answers
 * show them). `deps.ts`, `types.ts` and `ids.ts` beside this file are shared by every room.
 */
export { PrescriptionService } from './prescription-service.js';
export { requireRole } from './rules/guards.js';
export type { ServiceDeps } from './deps.js';
export type { CreateOptions } from './operations/create.js';
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
export { IssuedAtFormat } from './view/issued-at.js';
export { TermsVerifier } from './rules/terms.js';
export { VerificationCache } from './verification/verification-cache.js';
export type { VerifyOutcome } from './verification/verification-cache.js';
export { SEAL_KEY_BYTES, VerifiedHeads } from './verification/verified-heads.js';
export { chainFacts } from './rules/chain-state.js';
export { FeedClock } from './feed/feed-clock.js';
export { feedItem, readFeedPage, readFeedRows } from './feed/feed.js';
export { checkedFeed } from './feed/checked-feed.js';
export type { FeedReads } from './feed/checked-feed.js';
export type { FeedRowsPage } from './feed/feed.js';
export { parseCursor } from './feed/feed-cursor.js';
export { idProblem } from './ids.js';
export type { ListQuery } from './operations/list-issued.js';
export { chainVouches } from './verification/check-chain.js';
