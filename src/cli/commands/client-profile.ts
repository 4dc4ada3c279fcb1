/**
 * The prescriber profile on the command line: its options (shared by `erx clients add` and
 * `erx clients profile`), and `erx clients profile <clientId>`, which shows, sets, updates or
 * clears the profile of a registered prescriber client.
 */
import type { Command } from 'commander';
import type {
  ClientInfo,
  PrescriberProfile,
  ProfileInput,
  TokenService,
} from '../../auth/index.js';
import { PROFILE_INPUT_FIELDS } from '../../auth/profile-input.js';
import { ErxError } from '../../errors.js';
import { CliUsageError } from '../usage-error.js';

/** Runs `fn` with the token service over the configured store (see `./clients.ts`). */
export type WithTokens = <T>(fn: (tokens: TokenService) => Promise<T>) => Promise<T>;

/** Adds the profile options to `command`; their values are a {@link ProfileInput}. */
export function profileOptions(command: Command): Command {
  return command
    .option('--first-name <name>', 'prescriber first name (HcPerson FName)')
    .option('--last-name <name>', 'prescriber last name (HcPerson LName)')
    .option('--gln <gln>', 'prescriber GLN, 13 digits with a valid check digit (HcPerson, Auth)')
    .option('--zsr <zsr>', 'ZSR number, e.g. A123456 or A1234.56 (HcPerson Zsr)')
    .option('--practice-name <name>', 'practice name (HcOrg Name)')
    .option('--street <street>', 'practice street and number (HcOrg Street)')
    .option('--zip <zip>', 'practice postcode, 4 or 5 digits (HcOrg Zip)')
    .option('--city <city>', 'practice city (HcOrg City)')
    .option('--phone <phone>', 'practice phone (HcOrg Phone)');
}

/** The profile options of parsed options `o`, only those given. */
export function profileInput(o: ProfileInput): ProfileInput {
  const out: ProfileInput = {};
  for (const k of PROFILE_INPUT_FIELDS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** The profile as lines for a person. */
export function formatProfile(p: PrescriberProfile | undefined): string {
  if (p === undefined) return 'no profile\n';
  const lines = [`name: ${p.first_name} ${p.last_name}`, `GLN: ${p.gln}`];
  if (p.zsr !== undefined) lines.push(`ZSR: ${p.zsr}`);
  const o = p.practice;
  if (o !== undefined) {
    const phone = o.phone === undefined ? '' : `, ${o.phone}`;
    lines.push(`practice: ${o.name}, ${o.street}, ${o.zip} ${o.city}${phone}`);
  }
  return `${lines.join('\n')}\n`;
}

function show(client: ClientInfo): void {
  process.stdout.write(`client ${client.clientId} (${client.role}, ${client.sub})\n`);
  process.stdout.write(formatProfile(client.profile));
}

/** Registers `erx clients profile` under the `clients` command. */
export function registerProfileCommand(clients: Command, withTokens: WithTokens): void {
  profileOptions(
    clients
      .command('profile')
      .description(
        'show the profile of a prescriber client, or set the fields given (the desk prefills it)',
      )
      .argument('<clientId>', 'client id')
      .option('--clear', 'remove the profile'),
  ).action(async (clientId: string, o: ProfileInput & { clear?: boolean }) => {
    const input = profileInput(o);
    const changes = Object.keys(input).length > 0;
    if (o.clear === true && changes) {
      throw new CliUsageError('--clear takes no other profile option');
    }
    const client = await withTokens(async (t) => {
      if (o.clear === true || changes) return t.setClientProfile(clientId, o.clear ? null : input);
      const found = (await t.listClients()).find((c) => c.clientId === clientId);
      if (found === undefined) throw new ErxError('not_found', `There is no client ${clientId}.`);
      return found;
    });
    show(client);
  });
}
