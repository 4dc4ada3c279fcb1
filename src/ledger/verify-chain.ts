/**
 * SPEC.md §6 `logs_check_passed`, all checks in one place: per event, in order, the body and
 * hash (check 1), the link (check 2), the signature with its certificate chain (check 3) and the
 * time (never before its predecessor's); then the head (check 4). The result names the first bad
 * event and the check it failed.
 */
import type { ChainCheck, ChainFailureReason, CheckFailure } from './chain-failure.js';
import { checkEventHash } from './check-event-hash.js';
import { checkHead } from './check-head.js';
import { checkLink } from './check-link.js';
import { checkTime } from './check-time.js';
import type { EventBody, LedgerRecord } from './event.js';

/** Check 3 for one event whose body passed checks 1 and 2 (`EventVerifier` is one). */
export interface SignatureCheck {
  verify(record: LedgerRecord, body: EventBody): Promise<CheckFailure | undefined>;
}

/** A prescription's chain as stored. */
export interface ChainInput {
  readonly prescriptionId: string;
  /** The events in chain order (seq 0 first). */
  readonly events: readonly LedgerRecord[];
  /** The head hash stored with the prescription. */
  readonly headHash: string;
}

/** The outcome of {@link verifyChain}. */
export interface ChainVerification {
  readonly ok: boolean;
  /** Index of the first bad event; for `head`, the last event (the one the head should name). */
  readonly firstBadIndex?: number;
  readonly failedCheck?: ChainCheck;
  readonly reason?: ChainFailureReason;
  /** The parsed bodies of the events before the first structural failure (all, when ok). */
  readonly bodies: readonly EventBody[];
}

function failed(index: number, failure: CheckFailure, bodies: EventBody[]): ChainVerification {
  return {
    ok: false,
    firstBadIndex: index,
    failedCheck: failure.check,
    reason: failure.reason,
    bodies,
  };
}

/** Verifies a whole chain; never throws for bad data, only reports it. Pure apart from the verifier. */
export async function verifyChain(
  input: ChainInput,
  verifier: SignatureCheck,
): Promise<ChainVerification> {
  const { events, prescriptionId } = input;
  if (events.length === 0) return failed(0, { check: 'link', reason: 'empty_chain' }, []);
  // Checks 1 and 2 are cheap: run them first, up to the first failure.
  const bodies: EventBody[] = [];
  let structural: { index: number; failure: CheckFailure } | undefined;
  for (const [index, record] of events.entries()) {
    const content = checkEventHash(record, prescriptionId);
    const failure = content.ok
      ? checkLink(content.body, index, events[index - 1]?.hash, record)
      : { check: content.check, reason: content.reason };
    if (failure !== undefined) {
      structural = { index, failure };
      break;
    }
    if (content.ok) bodies.push(content.body);
  }
  // Check 3 for the events before that failure, concurrently (WebCrypto runs off the main thread).
  const signatures = await Promise.all(
    bodies.map((body, index) => verifier.verify(events[index] as LedgerRecord, body)),
  );
  // The time check after the signature: an event that fails it was signed by a real leaf.
  const checked = signatures.map(
    (failure, index) => failure ?? checkTime(bodies[index] as EventBody, bodies[index - 1]),
  );
  const bad = checked.findIndex((failure) => failure !== undefined);
  if (bad >= 0) return failed(bad, checked[bad] as CheckFailure, bodies);
  if (structural !== undefined) return failed(structural.index, structural.failure, bodies);
  const head = checkHead(events, input.headHash);
  if (head !== undefined) return failed(events.length - 1, head, bodies);
  return { ok: true, bodies };
}
