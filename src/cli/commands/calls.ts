/**
 * The client commands: create, verify, dispense, revoke, lock, unlock, cancel and token,
 * each one call to a running erx at `ERX_URL` with the token in `ERX_TOKEN`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { CreateResult, DispenseItem, TokenResult } from '../../api/index.js';
import { loadConfig } from '../../config/index.js';
import { MAX_PARTS } from '../../chmed23a/transmission.js';
import { joinPartLinks } from '../../link/parts.js';
import { decodeQrCodesPng, isPng } from '../../qr/decode-png.js';
import { renderQrCodesPng } from '../../qr/render-codes.js';
import { medicamentTable } from '../medicament-table.js';
import { readText } from '../read-input.js';
import { callService, printJson } from '../service-client.js';
import type { CallResult } from '../service-client.js';
import { CliUsageError } from '../usage-error.js';

const JSON_TYPE = 'application/json';
const path = (parts: TemplateStringsArray, ...ids: string[]): string =>
  parts.reduce(
    (out, part, i) => out + part + (i < ids.length ? encodeURIComponent(ids[i] as string) : ''),
    '',
  );

/**
 * The link from `<link | @file | qr.png>`. An image may hold the part codes of one CHMED23A link
 * (as create draws them, stacked): they are joined into the link in one piece.
 */
function readLinkArg(arg: string): string {
  const file = arg.startsWith('@') ? arg.slice(1) : existsSync(arg) ? arg : undefined;
  if (file === undefined) return arg;
  const bytes = readFileSync(file);
  return isPng(bytes) ? joinPartLinks(decodeQrCodesPng(bytes, MAX_PARTS)) : readText(file).trim();
}

const KEY_OPTION = [
  '--idempotency-key <key>',
  'Idempotency-Key (default: a new one per run)',
] as const;

/**
 * The key of a mutating call: the user's, else a new one, made once per run so that every retry of
 * the call carries the same (the retry contract; a retry never records twice).
 */
function keyOf(o: { idempotencyKey?: string }): string {
  return o.idempotencyKey ?? randomUUID();
}

/** The JSON of an answer, or undefined when it is none. */
function jsonOf(result: CallResult): unknown {
  try {
    return JSON.parse(result.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Parses `--item id:amount[:substitute:type]`. */
function parseItem(spec: string, previous: DispenseItem[] = []): DispenseItem[] {
  const parts = spec.split(':');
  const [id, amount, substitute, type] = parts;
  if (parts.length !== 2 && parts.length !== 4) {
    throw new CliUsageError(`--item ${spec}: expected id:amount or id:amount:substitute:type`);
  }
  // The service checks the values (SPEC.md §5); this only splits the option.
  const item: DispenseItem = { id: id ?? '', amount: Number(amount) };
  if (substitute !== undefined) {
    item.substitute = substitute;
    item.substitute_id_type = Number(type);
  }
  return [...previous, item];
}

interface DispenseOptions {
  item?: DispenseItem[];
  force?: boolean;
  reason?: string;
  idempotencyKey?: string;
}

/** Registers the client commands on `program`. */
export function registerCallCommands(program: Command): void {
  program
    .command('token')
    .description('get an access token from a running erx (prints the token)')
    .requiredOption('--client-id <id>', 'client id')
    .requiredOption('--client-secret <secret>', 'client secret')
    .action(async (o: { clientId: string; clientSecret: string }) => {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: o.clientId,
        client_secret: o.clientSecret,
      });
      const result = await callService(loadConfig(), 'POST', '/REST/v1/OAuth/token', {
        body: form.toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      const answer = JSON.parse(result.body.toString('utf8')) as TokenResult;
      process.stdout.write(`${answer.access_token}\n`);
    });

  program
    .command('create')
    .description(
      'create a prescription from a JSON document; prints the link (and writes a PNG QR code)',
    )
    .argument('<file.json>', 'the prescription document')
    .option('--png <out.png>', 'also write the QR code as PNG')
    .option(...KEY_OPTION)
    .action(async (file: string, o: { png?: string; idempotencyKey?: string }) => {
      const config = loadConfig();
      const body = readText(file);
      const data = await callService(config, 'POST', '/ePrescription/create?output-format=data', {
        body,
        contentType: JSON_TYPE,
        auth: true,
        idempotencyKey: keyOf(o),
      });
      const answer = JSON.parse(data.body.toString('utf8')) as CreateResult;
      process.stdout.write(`${answer.SignedPrescriptionData}\n`);
      process.stderr.write(`prescription ${answer.prescription_id} created\n`);
      if (o.png !== undefined) {
        // The image the service renders for output-format=qrcode, drawn here from the answer: the
        // link's code, or its part links' codes stacked.
        const codes = answer.SignedPrescriptionParts ?? [answer.SignedPrescriptionData];
        writeFileSync(o.png, await renderQrCodesPng(codes, 400));
        process.stderr.write(`QR code written to ${o.png}\n`);
      }
    });

  program
    .command('verify')
    .description(
      'verify a link (with ERX_TOKEN: the variant with transactions, and its medicaments as a table on stderr)',
    )
    .argument('<input>', 'link | @file | qr.png (every part code of a stacked CHMED23A image)')
    .action(async (input: string) => {
      const result = await callService(loadConfig(), 'POST', '/ePrescription/verify', {
        body: readLinkArg(input),
        contentType: 'text/plain',
        auth: 'optional',
      });
      printJson(result);
      const table = medicamentTable(jsonOf(result));
      if (table !== undefined) process.stderr.write(table);
    });

  program
    .command('dispense')
    .description('record a dispensation: no --item is a full one')
    .argument('<id>', 'prescription id')
    .option('--item <id:amount[:substitute:type]>', 'a dispensed item (repeatable)', parseItem)
    .option(
      '--force',
      'dispense although the prescription refuses it (dispensed, quantity, substitution, expired)',
    )
    .option('--reason <text>', 'why, recorded with --force (the service refuses it without)')
    .option(...KEY_OPTION)
    .action(async (id: string, o: DispenseOptions) => {
      // The service judges a reason without force (a 400): it is sent as given.
      const params = [
        ...(o.force ? ['force=true'] : []),
        ...(o.reason === undefined ? [] : [`reason=${encodeURIComponent(o.reason)}`]),
      ];
      const query = params.length > 0 ? `?${params.join('&')}` : '';
      const result = await callService(
        loadConfig(),
        'POST',
        path`/ePrescription/dispense/${id}` + query,
        {
          body: o.item ? JSON.stringify(o.item) : undefined,
          contentType: JSON_TYPE,
          auth: true,
          idempotencyKey: keyOf(o),
        },
      );
      printJson(result);
    });

  for (const action of ['revoke', 'lock', 'unlock'] as const) {
    program
      .command(action)
      .description(`${action} a prescription`)
      .argument('<id>', 'prescription id')
      .option('--reason <text>', 'reason (lock and unlock)')
      .option(...KEY_OPTION)
      .action(async (id: string, o: { reason?: string; idempotencyKey?: string }) => {
        const query =
          o.reason !== undefined && action !== 'revoke'
            ? `?reason=${encodeURIComponent(o.reason)}`
            : '';
        const result = await callService(
          loadConfig(),
          'POST',
          path`/ePrescription/${action}/${id}` + query,
          { auth: true, idempotencyKey: keyOf(o) },
        );
        printJson(result);
      });
  }

  program
    .command('cancel')
    .description('cancel one of your own dispense events')
    .argument('<id>', 'prescription id')
    .argument('<eventId>', 'event id')
    .option(...KEY_OPTION)
    .action(async (id: string, eventId: string, o: { idempotencyKey?: string }) => {
      const result = await callService(
        loadConfig(),
        'POST',
        path`/ePrescription/cancel/${id}/event/${eventId}`,
        { auth: true, idempotencyKey: keyOf(o) },
      );
      printJson(result);
    });
}
