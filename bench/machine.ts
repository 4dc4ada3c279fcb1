/** The facts a result needs to be compared with another: machine, runtime, date, commit. */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export interface MachineFacts {
  readonly cpu_model: string;
  readonly cores: number;
  readonly memory_gib: number;
  readonly node: string;
  readonly openssl: string;
  readonly platform: string;
  /** 1-minute load average when the bench started: another busy process skews every figure. */
  readonly load_average_at_start: number;
}

export interface RunFacts {
  readonly date: string;
  readonly commit: string;
  /** The working tree differed from the commit (the figures are of the tree, not the commit). */
  readonly dirty: boolean;
}

function git(args: string[]): string | undefined {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Reads the machine's facts. */
export function machineFacts(): MachineFacts {
  return {
    cpu_model: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    openssl: process.versions.openssl ?? 'unknown',
    platform: `${process.platform} ${process.arch}`,
    load_average_at_start: loadavg()[0] ?? 0,
  };
}

/** Date and commit of this run (read-only git queries). */
export function runFacts(): RunFacts {
  return {
    date: new Date().toISOString(),
    commit: git(['rev-parse', 'HEAD']) ?? 'unknown',
    dirty: (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
  };
}
