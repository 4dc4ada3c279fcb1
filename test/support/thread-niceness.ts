/** The Linux nice value of each thread of a process, by thread id (`/proc/<pid>/task`). */
import { readdirSync, readFileSync } from 'node:fs';

export function threadNiceness(pid: number | 'self' = 'self'): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name: state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}
