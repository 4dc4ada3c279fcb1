/**
 * `erx audit verify`: re-check every chain in the store (SPEC.md §6 `logs_check_passed`), e.g.
 * after a restore, and the signed terms of each prescription whose chain holds (SPEC.md §10: the
 * copies the rules decide from). Reports the first bad event of each failing chain, or why its
 * terms fail; and where the transparency log's leaves and the live events disagree
 * (`./audit-log.ts`).
 */
import { verifyChain } from '../../ledger/index.js';
import type { ChainCheck, ChainFailureReason, EventVerifier } from '../../ledger/index.js';
import type { LinkVerificationKeys } from '../../link/index.js';
import type { ChainState, Store } from '../../store/types.js';
import { LruCache } from '../../lru-cache.js';
import { chainName } from '../../transparency/leaf-entry.js';
import { TermsVerifier, readTerms } from '../rules/terms.js';
import type { TermsFailure } from '../rules/terms.js';
import { LeafAudit, chainFindings, findingKey } from './audit-log.js';
import type { LogFinding } from './audit-log.js';

export interface AuditFailure {
  prescriptionId: string;
  /** The first bad event; undefined for terms, which no event holds. */
  firstBadIndex: number | undefined;
  /** The chain check that failed, or `terms` for the prescription's signed terms. */
  failedCheck: ChainCheck | 'terms' | undefined;
  reason: ChainFailureReason | TermsFailure | undefined;
}

export interface AuditReport {
  checked: number;
  events: number;
  failures: AuditFailure[];
  /** Where the log's leaves and the live events disagree, up to the newest checkpoint. */
  log: LogFinding[];
}

/** What the terms are checked with, as the service checks them. */
export interface AuditTermsKeys {
  /** The link keys, which sign the terms (`../rules/terms.ts`). */
  readonly linkKeys: LinkVerificationKeys;
  /** The configured `ERX_PRESCRIPTION_VALIDITY` (the expiry of rows without signed terms). */
  readonly prescriptionValidityMs: number;
  /** The log's verifier key; without it, the newest checkpoint's stored root is taken as signed. */
  readonly logVerifierKey?: string;
}

const PAGE = 500;

/** The failure of one prescription's chain or, on a chain that holds, of its terms. */
async function auditOne(
  state: ChainState,
  verifier: EventVerifier,
  terms: TermsVerifier,
  validityMs: number,
): Promise<AuditFailure | undefined> {
  const prescriptionId = state.prescription.id;
  const chain = await verifyChain(
    { prescriptionId, events: state.events, headHash: state.prescription.headHash },
    verifier,
  );
  if (!chain.ok) {
    return {
      prescriptionId,
      firstBadIndex: chain.firstBadIndex,
      failedCheck: chain.failedCheck,
      reason: chain.reason,
    };
  }
  // Read against the create event of a verified chain: only that one says who issued it.
  const read = readTerms(state.prescription, chain.bodies[0]!, terms, validityMs);
  if (typeof read !== 'string') return undefined;
  return { prescriptionId, firstBadIndex: undefined, failedCheck: 'terms', reason: read };
}

/**
 * Verifies every prescription's chain and terms, and compares the log's leaves with the live
 * events; `onProgress(done, total)` after each prescription.
 */
export async function auditChains(
  store: Store,
  verifier: EventVerifier,
  keys: AuditTermsKeys,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<AuditReport> {
  const total = await store.prescriptions.count();
  const report: AuditReport = { checked: 0, events: 0, failures: [], log: [] };
  // One tree for the whole audit: leaves logged meanwhile are not compared.
  const head = await store.log.head();
  // Each prescription's terms are read once: a memo of one is all the audit needs.
  const terms = new TermsVerifier(keys.linkKeys, new LruCache(1));
  let after: string | undefined;
  for (;;) {
    const ids = await store.prescriptions.ids(after, PAGE);
    if (ids.length === 0) break;
    for (const id of ids) {
      const state = (await store.readChain(id))?.state;
      if (!state) continue;
      const failure = await auditOne(state, verifier, terms, keys.prescriptionValidityMs);
      report.checked += 1;
      report.events += state.events.length;
      if (failure) report.failures.push(failure);
      if (head !== undefined) {
        const leaves = await store.log.chainLeaves(chainName(id), head.size);
        const unsignedAt = failure?.failedCheck === 'signature' ? failure.firstBadIndex : undefined;
        report.log.push(...chainFindings(id, state.events, leaves, unsignedAt));
      }
      onProgress(report.checked, total);
    }
    after = ids[ids.length - 1];
  }
  if (head !== undefined) {
    const known = new Set(report.log.map(findingKey));
    report.log.push(...(await new LeafAudit(store.log, head, keys.logVerifierKey).run(known)));
  }
  return report;
}
