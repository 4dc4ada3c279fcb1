export { appendEvent, buildEvent } from './append-event.js';
export type { BuiltEvent, ChainHead, NewEvent } from './append-event.js';
export { canonicalJson } from './canonical-json.js';
export type {
  ChainCheck,
  ChainFailureReason,
  CheckFailure,
  SignatureFailureReason,
} from './chain-failure.js';
export { checkEventHash } from './check-event-hash.js';
export type { EventHashCheck } from './check-event-hash.js';
export { checkHead } from './check-head.js';
export { checkLink } from './check-link.js';
export { EVENT_TYPES, OVERRIDE_CODES } from './event.js';
export type {
  DispenseEntry,
  EventBody,
  EventData,
  EventType,
  LedgerRecord,
  OverrideCode,
  SignedEvent,
} from './event.js';
export { EVENT_KINDS, eventKind } from './event-kinds.js';
export type { EventDataShape, EventKind, FoldEffect } from './event-kinds.js';
export { EventVerifier } from './event-verifier.js';
export type { EventVerifierMemo } from './event-verifier.js';
export { isSha256Hex, sha256Hex } from './hash.js';
export { inspectJws } from './inspect-jws.js';
export type { JwsInspection } from './inspect-jws.js';
export { parseEventBody, parseEventShape } from './parse-event-body.js';
export type { BodyFailureReason, ParsedBody } from './parse-event-body.js';
export { checkPrescriptionHash, prescriptionHash } from './prescription-hash.js';
export { LEDGER_JWS_ALG, signEventHash } from './sign-event-hash.js';
export { tamperDetectionResult } from './tamper-detection.js';
export type { TamperDetectionInput, TamperDetectionResult } from './tamper-detection.js';
export { Clock } from './clock.js';
export { formatTimestamp, parseTimestamp, tryParseTimestamp } from './timestamp.js';
export type { ParsedTimestamp } from './timestamp.js';
export { validateEventBody } from './validate-event-body.js';
export type { BodyValidation } from './validate-event-body.js';
export { verifyChain } from './verify-chain.js';
export type { ChainInput, ChainVerification, SignatureCheck } from './verify-chain.js';
