/**
 * `erx audit verify`: re-check every chain in the store and the signed terms of every
 * prescription, compare the transparency log's leaves with the live events, with progress and a
 * summary; and the registered clients, of which no two of
 * different roles may share a `sub` (a store may hold such pairs from before erx refused them).
 */
import type { Command } from 'commander';
import { subsOfBothRoles } from '../../auth/shared-subs.js';
import type { SharedSub } from '../../auth/shared-subs.js';
import { loadConfig } from '../../config/index.js';
import { EventVerifier } from '../../ledger/index.js';
import { openLogIdentity } from '../../server/log-key.js';
import { openKeys } from '../../server/runtime.js';
import { openStore } from '../../server/open-store.js';
import { auditChains } from '../../service/operations/audit.js';
import type { AuditFailure } from '../../service/operations/audit.js';
import type { LogFinding, LogFindingKind } from '../../service/operations/audit-log.js';
import { VerificationMemory } from '../../memory/verification-memory.js';

/** One line of the report: the first bad event of a chain, or the terms that fail. */
function failureLine(f: AuditFailure): string {
  if (f.failedCheck === 'terms') return `FAIL ${f.prescriptionId}: terms failed (${f.reason})\n`;
  return `FAIL ${f.prescriptionId}: event #${f.firstBadIndex ?? '?'} failed ${f.failedCheck ?? '?'} (${f.reason ?? 'unknown'})\n`;
}

/** What each kind of log finding means, for its line. */
const LOG_FINDINGS: Record<LogFindingKind, string> = {
  other_hash: 'the event at its place has another hash (rewritten)',
  missing: 'no live event holds it (the chain ends before its place, or the row is gone)',
  ghost: 'held by an event row of a prescription that does not exist (a ghost)',
  moved: 'its event left the feed position the log read it at',
  reused: 'another event holds the feed position the log read it at',
  unsigned: 'its event is logged, but its signature does not verify',
  checkpoint: 'the newest checkpoint is not signed by the log key',
  root: 'the leaves kept are not those of the signed tree',
};

/** One line of the report: a leaf of the log, or the log, that the live events contradict. */
function logLine(f: LogFinding): string {
  const where = [
    f.leaf === undefined ? undefined : `leaf ${f.leaf}`,
    f.chain === undefined ? undefined : `chain ${f.chain} place ${f.place ?? '?'}`,
    f.prescriptionId === undefined ? undefined : `prescription ${f.prescriptionId}`,
  ].filter((part) => part !== undefined);
  const at = where.length === 0 ? '' : ` ${where.join(', ')}`;
  return `LOG${at}: ${LOG_FINDINGS[f.kind]}\n`;
}

/** One line of the report: a `sub` held by clients of both roles. */
function sharedSubLine(s: SharedSub): string {
  return (
    `CLIENTS ${s.sub}: held by prescriber ${s.prescribers.join(', ')} and pharmacist ` +
    `${s.pharmacists.join(', ')} (one sub has one role: remove the clients of one role)\n`
  );
}

/** Registers `audit verify` on `program`. */
export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description('audit the event logs')
    .command('verify')
    .description(
      're-check every hash, link, signature and certificate chain in the store, the signed ' +
        'terms, the transparency log against the live events, and that no sub is held by ' +
        'clients of both roles',
    )
    .action(async () => {
      const config = loadConfig();
      const store = await openStore(config);
      try {
        const { pki, linkKeys } = await openKeys(config.dataDir, config);
        const tty = process.stderr.isTTY;
        const report = await auditChains(
          store,
          new EventVerifier(pki.trustStore, new VerificationMemory()),
          {
            linkKeys,
            prescriptionValidityMs: config.prescriptionValidityMs,
            logVerifierKey: openLogIdentity(config.dataDir, config.logOrigin).verifierKey,
          },
          (done, total) => {
            if (tty && (done % 100 === 0 || done === total)) {
              process.stderr.write(`\rchecked ${done}/${total} prescriptions`);
            }
          },
        );
        if (tty) process.stderr.write('\n');
        for (const f of report.failures) process.stdout.write(failureLine(f));
        for (const f of report.log) process.stdout.write(logLine(f));
        process.stdout.write(
          `audit: ${report.checked} prescriptions, ${report.events} events, ${report.failures.length} failed, ` +
            `${report.log.length} log findings\n`,
        );
        const shared = subsOfBothRoles(await store.clients.list());
        for (const s of shared) process.stdout.write(sharedSubLine(s));
        if (shared.length > 0) {
          process.stdout.write(`audit: ${shared.length} subs held by clients of both roles\n`);
        }
        const failed = report.failures.length + report.log.length + shared.length;
        if (failed > 0) process.exitCode = 1;
      } finally {
        await store.close();
      }
    });
}
