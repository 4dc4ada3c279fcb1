/**
 * `erx audit verify`: re-check every chain in the store and the signed terms of every
 * prescription, with progress and a summary; and the registered clients, of which no two of
 * different roles may share a `sub` (a store may hold such pairs from before erx refused them).
 */
import type { Command } from 'commander';
import { subsOfBothRoles } from '../../auth/shared-subs.js';
import type { SharedSub } from '../../auth/shared-subs.js';
import { loadConfig } from '../../config/index.js';
import { EventVerifier } from '../../ledger/index.js';
import { openKeys } from '../../server/runtime.js';
import { openStore } from '../../server/open-store.js';
import { auditChains } from '../../service/audit.js';
import type { AuditFailure } from '../../service/audit.js';
import { VerificationMemory } from '../../memory/verification-memory.js';

/** One line of the report: the first bad event of a chain, or the terms that fail. */
function failureLine(f: AuditFailure): string {
  if (f.failedCheck === 'terms') return `FAIL ${f.prescriptionId}: terms failed (${f.reason})\n`;
  return `FAIL ${f.prescriptionId}: event #${f.firstBadIndex ?? '?'} failed ${f.failedCheck ?? '?'} (${f.reason ?? 'unknown'})\n`;
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
        'terms, and that no sub is held by clients of both roles',
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
          { linkKeys, prescriptionValidityMs: config.prescriptionValidityMs },
          (done, total) => {
            if (tty && (done % 100 === 0 || done === total)) {
              process.stderr.write(`\rchecked ${done}/${total} prescriptions`);
            }
          },
        );
        if (tty) process.stderr.write('\n');
        for (const f of report.failures) process.stdout.write(failureLine(f));
        process.stdout.write(
          `audit: ${report.checked} prescriptions, ${report.events} events, ${report.failures.length} failed\n`,
        );
        const shared = subsOfBothRoles(await store.listClients());
        for (const s of shared) process.stdout.write(sharedSubLine(s));
        if (shared.length > 0) {
          process.stdout.write(`audit: ${shared.length} subs held by clients of both roles\n`);
        }
        if (report.failures.length > 0 || shared.length > 0) process.exitCode = 1;
      } finally {
        await store.close();
      }
    });
}
