/**
 * CPU time while something is measured, from `/proc`:
 * - the share of the machine other processes used: on a shared machine a busy neighbour lowers a
 *   figure or a ceiling without any sign in the figure itself (`/proc/stat` minus the CPU time of
 *   the bench process, its threads and reaped children, and of the servers it watches);
 * - the CPU time of the watched servers, which gives a cost per request that a neighbour barely
 *   changes (throughput falls with contention; CPU per request does not).
 */
import { readFileSync } from 'node:fs';

/** All and busy time of the machine, in clock ticks. */
function machineTicks(): { all: number; busy: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { all: busy + idle + iowait, busy };
}

/** utime + stime + cutime + cstime of a process, in clock ticks (0 once it is gone). */
function processTicks(pid: number | 'self'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses; utime is field 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  } catch {
    return 0;
  }
}

/** Linux reports process and machine times in USER_HZ ticks, 100 per second. */
const TICKS_PER_SECOND = 100;

export interface CpuSeen {
  /** Share of the machine's CPU (0–1) used by processes other than the bench and `pids`. */
  readonly foreign: number;
  /** CPU seconds used by the processes `pids` (for the bench process itself: pass none). */
  readonly watchedSeconds: number;
  /** CPU seconds used by the bench process (threads and reaped children included). */
  readonly benchSeconds: number;
}

function sumTicks(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + processTicks(pid), 0);
}

/** Starts watching; call the returned function (before any of `pids` exits) to stop. */
export function watchCpu(pids: readonly number[]): () => CpuSeen {
  const machine = machineTicks();
  const watched = sumTicks(pids);
  const bench = processTicks('self');
  return () => {
    const after = machineTicks();
    const watchedTicks = sumTicks(pids) - watched;
    const benchTicks = processTicks('self') - bench;
    const all = after.all - machine.all;
    const foreign = after.busy - machine.busy - watchedTicks - benchTicks;
    return {
      foreign: all <= 0 ? 0 : Math.min(1, Math.max(0, foreign / all)),
      watchedSeconds: watchedTicks / TICKS_PER_SECOND,
      benchSeconds: benchTicks / TICKS_PER_SECOND,
    };
  };
}
