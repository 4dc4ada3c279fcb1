/** Self time per function and per source in a V8 CPU profile (`node --cpu-prof`). */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly totalMs: number;
  readonly idleShare: number;
  readonly functions: SelfTime[];
  readonly sources: SelfTime[];
  /** Time with the function anywhere on the stack (callees included), erx's own code only. */
  readonly inclusive: SelfTime[];
}

/** Where a frame's code lives: `node_modules/<package>`, a project path, or `(node)`. */
function sourceOf(url: string): string {
  if (url === '') return '(native/VM)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const project = /\/(src|bench)\/(.+)$/.exec(url);
  return project ? `${project[1]}/${project[2]}` : basename(url);
}

function ranked(map: Map<string, number>, totalMs: number, top: number): SelfTime[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: ms / totalMs }));
}

function frameName(frame: CallFrame): string {
  const where = sourceOf(frame.url);
  return `${frame.functionName || '(anonymous)'}  ${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
}

/** Time per erx function with its callees, each sample counted once per function on its stack. */
function inclusiveTimes(profile: CpuProfile, selfUs: Map<number, number>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const totals = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!;
      if (!/\/src\//.test(frame.url) || frame.url.includes('node_modules')) continue;
      const name = frameName(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + us / 1000);
    }
  }
  return totals;
}

/** Reads one profile and ranks self time by function and by source. */
export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const functions = new Map<string, number>();
  const sources = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!;
    const ms = us / 1000;
    totalMs += ms;
    if (frame.functionName === '(idle)') idleMs += ms;
    const where = sourceOf(frame.url);
    const name = frameName(frame);
    functions.set(name, (functions.get(name) ?? 0) + ms);
    sources.set(where, (sources.get(where) ?? 0) + ms);
  }
  return {
    file,
    totalMs,
    idleShare: idleMs / totalMs,
    functions: ranked(functions, totalMs, top),
    sources: ranked(sources, totalMs, top),
    inclusive: ranked(inclusiveTimes(profile, selfUs), totalMs, top),
  };
}
