/**
 * `erx audit verify`: re-check every chain in the store (SPEC.md §6 `logs_check_passed`), e.g.
 * after a restore. Reports the first bad event of each failing chain.
 */
import { verifyChain } from '../ledger/index.js';
import type { ChainCheck, ChainFailureReason, EventVerifier } from '../ledger/index.js';
import type { Store } from '../store/types.js';

export interface AuditFailure {
  prescriptionId: string;
  firstBadIndex: number | undefined;
  failedCheck: ChainCheck | undefined;
  reason: ChainFailureReason | undefined;
}

export interface AuditReport {
  checked: number;
  events: number;
  failures: AuditFailure[];
}

const PAGE = 500;

/** Verifies every prescription's chain; `onProgress(done, total)` after each one. */
export async function auditChains(
  store: Store,
  verifier: EventVerifier,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<AuditReport> {
  const total = await store.countPrescriptions();
  const report: AuditReport = { checked: 0, events: 0, failures: [] };
  let after: string | undefined;
  for (;;) {
    const ids = await store.listPrescriptionIds(after, PAGE);
    if (ids.length === 0) break;
    for (const id of ids) {
      const state = await store.getChain(id);
      if (!state) continue;
      const result = await verifyChain(
        { prescriptionId: id, events: state.events, headHash: state.prescription.headHash },
        verifier,
      );
      report.checked += 1;
      report.events += state.events.length;
      if (!result.ok) {
        report.failures.push({
          prescriptionId: id,
          firstBadIndex: result.firstBadIndex,
          failedCheck: result.failedCheck,
          reason: result.reason,
        });
      }
      onProgress(report.checked, total);
    }
    after = ids[ids.length - 1];
  }
  return report;
}
