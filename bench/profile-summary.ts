/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, e.g. from `npm run bench -- --profile`): the
 * functions with the most self time, and self time per source (a package or a file of erx).
 *
 *   npx tsx bench/profile-summary.ts [--top N] file.cpuprofile ...
 */
import { summariseProfile } from './report/cpu-profile.js';
import type { ProfileSummary } from './report/cpu-profile.js';

function print(summary: ProfileSummary): void {
  const pct = (s: number): string => `${(s * 100).toFixed(1).padStart(5)}%`;
  console.log(
    `\n${summary.file}: ${(summary.totalMs / 1000).toFixed(1)} s sampled, idle ${pct(summary.idleShare)}`,
  );
  console.log('  self time by function:');
  for (const f of summary.functions) console.log(`    ${pct(f.share)}  ${f.name}`);
  console.log('  time with callees, erx functions:');
  for (const f of summary.inclusive) console.log(`    ${pct(f.share)}  ${f.name}`);
  console.log('  self time by source:');
  for (const s of summary.sources) console.log(`    ${pct(s.share)}  ${s.name}`);
}

function main(): void {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  if (args.length === 0) {
    console.error('usage: tsx bench/profile-summary.ts [--top N] file.cpuprofile ...');
    process.exit(2);
  }
  for (const file of args) print(summariseProfile(file, top));
}

main();
