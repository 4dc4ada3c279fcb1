/** `profile-summary.md`: the top self-time functions and sources of each erx CPU profile. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summariseProfile } from './cpu-profile.js';

/** Summarises every `.cpuprofile` in `directory` into the Markdown file `target`. */
export function writeProfileSummary(directory: string, target: string, top = 20): void {
  if (!existsSync(directory)) return;
  const files = readdirSync(directory)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const sections = files.map((file) => {
    const s = summariseProfile(join(directory, file), top);
    const pct = (share: number): string => `${(share * 100).toFixed(1)} %`;
    return [
      `## ${file}`,
      '',
      `${(s.totalMs / 1000).toFixed(1)} s sampled, idle ${pct(s.idleShare)}.`,
      '',
      '| self | function |',
      '|---:|---|',
      ...s.functions.map((f) => `| ${pct(f.share)} | \`${f.name}\` |`),
      '',
      '| with callees | erx function |',
      '|---:|---|',
      ...s.inclusive.map((f) => `| ${pct(f.share)} | \`${f.name}\` |`),
      '',
      '| self | source |',
      '|---:|---|',
      ...s.sources.map((f) => `| ${pct(f.share)} | \`${f.name}\` |`),
      '',
    ].join('\n');
  });
  writeFileSync(target, `# CPU profiles of erx, one per figure\n\n${sections.join('\n')}`);
}
