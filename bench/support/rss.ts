/**
 * Peak resident memory of another process, from `/proc/<pid>/status`. `VmHWM` is the kernel's own
 * high-water mark, which polling could miss between samples; writing `5` to `clear_refs` resets it
 * to the current RSS, so each figure gets its own peak.
 */
import { readFileSync, writeFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    // The kernel counts KiB; reported in MB (10^6 bytes), the stricter reading of the 250 MB target.
    return match ? (Number(match[1]) * 1024) / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** Watches the peak RSS of `pid` over a stretch of time. */
export class PeakRss {
  readonly #pid: number;
  #polled = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(pid: number) {
    this.#pid = pid;
  }

  /** The process's lifetime high-water mark in MB (undefined once it has exited). */
  lifetimePeakMb(): number | undefined {
    return statusField(this.#pid, 'VmHWM');
  }

  /** Starts a new stretch: resets the kernel's mark (where allowed) and starts polling RSS. */
  start(): void {
    try {
      writeFileSync(`/proc/${this.#pid}/clear_refs`, '5');
    } catch {
      // Without the reset the mark covers the process's lifetime: still an upper bound.
    }
    this.#polled = statusField(this.#pid, 'VmRSS') ?? 0;
    this.#timer = setInterval(() => {
      this.#polled = Math.max(this.#polled, statusField(this.#pid, 'VmRSS') ?? 0);
    }, 50);
    this.#timer.unref();
  }

  /** Ends the stretch; answers its peak in MB (the larger of the kernel mark and the polls). */
  stop(): number {
    clearInterval(this.#timer);
    return Math.max(this.#polled, statusField(this.#pid, 'VmHWM') ?? 0);
  }
}
