/** `erx keys list` / `erx keys rotate`: the link-signing key ring and the ledger root. */
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { LinkKeyring } from '../../link/index.js';
import { keyPaths } from '../../server/runtime.js';

function formatTime(unixSeconds: number | null): string {
  return unixSeconds === null ? '-' : new Date(unixSeconds * 1000).toISOString();
}

/** Registers the key commands on `program`. */
export function registerKeyCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage the link-signing keys (Ed25519) in the data directory');

  keys
    .command('list')
    .description('list the link keys: current one first, retired ones kept for verification')
    .action(() => {
      const ring = LinkKeyring.open(keyPaths(loadConfig().dataDir).linkKeys);
      const rows = [...ring.list()].sort((a, b) => Number(b.current) - Number(a.current));
      for (const k of rows) {
        process.stdout.write(
          `${k.current ? 'current' : 'retired'}  ${k.kid}  created ${formatTime(k.createdAt)}  retired ${formatTime(k.retiredAt)}  ${k.fingerprint}\n`,
        );
      }
    });

  keys
    .command('rotate')
    .description('make a new current link key; the previous one stays trusted for old links')
    .action(async () => {
      const ring = LinkKeyring.open(keyPaths(loadConfig().dataDir).linkKeys);
      const key = await ring.rotate();
      process.stdout.write(`new current link key ${key.kid} (${key.fingerprint})\n`);
    });
}
