/**
 * What `erx receipt verify` trusts, from its options or, beside a data directory, from erx's own
 * files read only (nothing is created): the ledger root (`--root`, else `ERX_ROOT_CERT`, else the
 * data directory's `pki/root-cert.pem`) and the log key (`--log-key`, else the vkey of the data
 * directory's `transparency-log.key` under `ERX_LOG_ORIGIN`); witnesses come from `--witness` only.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/index.js';
import { TrustStore } from '../pki/index.js';
import { LOG_KEY_FILE, openLogIdentity } from '../server/log-key.js';
import { keyPaths } from '../server/runtime.js';
import { ed25519CosignatureVerifier, ed25519NoteVerifier } from '../tlog/index.js';
import type { NoteVerifier } from '../tlog/index.js';
import type { ReceiptPolicy } from '../transparency/verify-receipt.js';
import { readText } from './read-input.js';
import { CliUsageError } from './usage-error.js';

/** The options of `erx receipt verify` that say whom to trust. */
export interface ReceiptTrustOptions {
  logKey?: string[];
  witness?: string[];
  minWitnesses?: string;
  root?: string[];
}

/** The root certificate's file in the PKI directory (`DirectoryPkiStorage`). */
const ROOT_CERT_FILE = 'root-cert.pem';

function verifiers(vkeys: string[], option: string, parse: (v: string) => NoteVerifier) {
  return vkeys.map((vkey) => {
    try {
      return parse(vkey);
    } catch (error) {
      throw new CliUsageError(`${option} ${vkey}: ${(error as Error).message}`);
    }
  });
}

async function trustStore(options: ReceiptTrustOptions, config: Config): Promise<TrustStore> {
  const beside = join(keyPaths(config.dataDir).pki, ROOT_CERT_FILE);
  const files =
    options.root !== undefined
      ? options.root
      : config.rootCertPath !== undefined
        ? [config.rootCertPath]
        : existsSync(beside)
          ? [beside]
          : [];
  if (files.length === 0) {
    throw new CliUsageError(`no trusted root: give --root CERT.pem (none in ${config.dataDir})`);
  }
  try {
    return await TrustStore.fromCertificates(files.map((f) => readText(f)));
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError(`--root ${files.join(', ')}: not a P-384 certificate`);
  }
}

function logKeys(options: ReceiptTrustOptions, config: Config): NoteVerifier[] {
  if (options.logKey !== undefined) {
    return verifiers(options.logKey, '--log-key', ed25519NoteVerifier);
  }
  if (!existsSync(join(config.dataDir, LOG_KEY_FILE))) {
    throw new CliUsageError(`no log key: give --log-key VKEY (none in ${config.dataDir})`);
  }
  return [ed25519NoteVerifier(openLogIdentity(config.dataDir, config.logOrigin).verifierKey)];
}

function minWitnesses(raw: string | undefined, given: number): number {
  if (raw === undefined) return given;
  const k = Number(raw);
  if (!Number.isSafeInteger(k) || String(k) !== raw || k < 0 || k > given) {
    throw new CliUsageError(`--min-witnesses must be a whole number from 0 to ${given}`);
  }
  return k;
}

/** The policy a receipt is verified under. */
export async function receiptPolicy(
  options: ReceiptTrustOptions,
  config: Config,
): Promise<ReceiptPolicy> {
  const witnesses = verifiers(options.witness ?? [], '--witness', ed25519CosignatureVerifier);
  return {
    trustStore: await trustStore(options, config),
    logKeys: logKeys(options, config),
    witnesses,
    minWitnesses: minWitnesses(options.minWitnesses, witnesses.length),
  };
}
