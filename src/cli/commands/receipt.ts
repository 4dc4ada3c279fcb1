/**
 * `erx receipt verify`: checks a receipt (the `receipt` of a mutating answer, a C2SP tlog-proof
 * with the event's JWS) offline — the event signature and its certificate chain, the checkpoint's
 * log signature and witness cosignatures, the inclusion proof — and prints what it established as
 * one JSON line; a failure names the check on stderr and exits 1.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { TLOG_PROOF_HEADER } from '../../tlog/index.js';
import { ReceiptError } from '../../transparency/receipt-error.js';
import { ReceiptVerifier } from '../../transparency/verify-receipt.js';
import { receiptPolicy } from '../receipt-trust.js';
import type { ReceiptTrustOptions } from '../receipt-trust.js';
import { readText } from '../read-input.js';

// No default list: commander would print `(default: [])` in the help.
const collect = (value: string, list: string[] | undefined): string[] => [...(list ?? []), value];

/** What a valid receipt passed, in the order it is checked (`verify-receipt.ts`). */
const CHECKED = [
  'log_signature',
  'witness_cosignatures',
  'event_signature',
  'certificate_chain',
  'inclusion_proof',
] as const;

/**
 * The receipt's text from a file, standard input (`-`) or the argument itself; a whole answer
 * (JSON with a `receipt` field) gives its receipt, and the newline `jq -r` adds is dropped.
 */
export function readReceipt(arg: string): string {
  let text = arg === '-' ? readFileSync(0, 'utf8') : arg;
  if (arg !== '-' && !arg.startsWith(TLOG_PROOF_HEADER)) text = readText(arg);
  if (text.trimStart().startsWith('{')) {
    try {
      const answer = JSON.parse(text) as { receipt?: unknown };
      if (typeof answer.receipt === 'string') text = answer.receipt;
    } catch {
      // Not JSON after all: verified as it is, and refused as malformed.
    }
  }
  return text.endsWith('\n\n') ? text.slice(0, -1) : text;
}

/** Registers `receipt verify` on `program`. */
export function registerReceiptCommands(program: Command): void {
  program
    .command('receipt')
    .description('transparency log receipts')
    .command('verify')
    .description(
      'verify a receipt offline: event signature and certificate chain, log signature, ' +
        'witness cosignatures and inclusion proof',
    )
    .argument('<receipt>', 'a file, - for standard input, or the receipt text')
    .option('--log-key <vkey>', "the log's key (default: the data directory's)", collect)
    .option('--witness <vkey>', 'a trusted witness cosignature key (repeatable)', collect)
    .option('--min-witnesses <k>', 'cosignatures required (default: every --witness)')
    .option(
      '--root <cert.pem>',
      'the ledger root (default: ERX_ROOT_CERT, else the data directory’s)',
      collect,
    )
    .action(async (input: string, options: ReceiptTrustOptions) => {
      const policy = await receiptPolicy(options, loadConfig());
      const text = readReceipt(input);
      try {
        const r = await new ReceiptVerifier(policy).verify(text);
        const line = {
          valid: true,
          event_hash: r.eventHash,
          leaf_index: r.leafIndex,
          tree_size: r.treeSize,
          origin: r.origin,
          root_hash: r.rootHash,
          cosigned_by: r.cosignedBy,
          witnesses_required: r.witnessesRequired,
          signer: { not_before: r.signer.notBefore, not_after: r.signer.notAfter },
          root_certificate_sha256: r.signer.root,
          checked: CHECKED,
        };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      } catch (error) {
        if (!(error instanceof ReceiptError)) throw error;
        const line = { valid: false, failed: error.reason, message: error.describe() };
        process.stdout.write(`${JSON.stringify(line)}\n`);
        process.stderr.write(`erx: receipt: ${error.describe()}\n`);
        process.exitCode = 1;
      }
    });
}
