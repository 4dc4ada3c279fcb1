/**
 * `erx clients add|list|remove|profile`: the embedded token service's clients, straight in the
 * store.
 */
import type { Command } from 'commander';
import { TokenService } from '../../auth/index.js';
import type { ProfileInput } from '../../auth/index.js';
import { loadConfig } from '../../config/index.js';
import { openStore } from '../../server/open-store.js';
import { openPepper } from '../../server/pepper-key.js';
import {
  formatProfile,
  profileInput,
  profileOptions,
  registerProfileCommand,
} from './client-profile.js';

async function withTokens<T>(fn: (tokens: TokenService) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openStore(config);
  try {
    // The pepper of the instances over this store (ERX_PEPPER, or the data directory's key file).
    return await fn(new TokenService(store, openPepper(config)));
  } finally {
    await store.close();
  }
}

/** Registers the client commands on `program`. */
export function registerClientCommands(program: Command): void {
  const clients = program
    .command('clients')
    .description('manage the OAuth clients of the embedded token service');

  profileOptions(
    clients
      .command('add')
      .description(
        'register a client; prints the secret once when it is generated; a prescriber may be ' +
          'given a profile (the --first-name … --phone options) that the desk prefills',
      )
      .requiredOption('--id <clientId>', 'client id')
      .option('--secret <secret>', 'client secret (default: a random one, printed once)')
      .requiredOption('--role <role>', 'prescriber | pharmacist')
      .requiredOption('--name <name>', 'display name (event actor_name, issuer label)')
      .requiredOption('--sub <actorId>', 'actor id, e.g. HIN|pharma1')
      .option('--description <text>', 'description of the client', ''),
  ).action(
    async (
      o: {
        id: string;
        secret?: string;
        role: string;
        name: string;
        sub: string;
        description: string;
      } & ProfileInput,
    ) => {
      const profile = profileInput(o);
      const added = await withTokens((t) =>
        t.addClient({
          clientId: o.id,
          secret: o.secret,
          role: o.role,
          name: o.name,
          sub: o.sub,
          description: o.description,
          ...(Object.keys(profile).length > 0 ? { profile } : {}),
        }),
      );
      process.stdout.write(
        `client ${added.client.clientId} (${added.client.role}, ${added.client.sub}) added\n`,
      );
      if (added.client.profile !== undefined) {
        process.stdout.write(formatProfile(added.client.profile));
      }
      if (added.secret !== undefined) process.stdout.write(`secret: ${added.secret}\n`);
    },
  );

  clients
    .command('list')
    .description('list the registered clients (never their secrets)')
    .action(async () => {
      for (const c of await withTokens((t) => t.listClients())) {
        process.stdout.write(`${c.clientId}\t${c.role}\t${c.sub}\t${c.name}\t${c.description}\n`);
      }
    });

  clients
    .command('remove')
    .description('remove a client and its tokens')
    .argument('<clientId>', 'client id')
    .action(async (clientId: string) => {
      const removed = await withTokens((t) => t.removeClient(clientId));
      if (!removed) {
        process.stderr.write(`erx: no client ${clientId}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`client ${clientId} removed\n`);
    });

  registerProfileCommand(clients, withTokens);
}
