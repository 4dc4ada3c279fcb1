/**
 * The reading commands: `erx events` (the event feed, and with `--follow` its live stream) and
 * `erx prescriptions` (the prescriber's list). Each prints one JSON line per event or
 * prescription on stdout and `next <cursor>` on stderr: what to pass as `--after` to go on.
 */
import type { Command } from 'commander';
import { LIST_STATES } from '../../api/prescription-list.js';
import type { ListState, PrescriptionList } from '../../api/prescription-list.js';
import { loadConfig } from '../../config/index.js';
import { follow, readToHead } from '../event-feed.js';
import type { FeedReader } from '../event-feed.js';
import { callService } from '../service-client.js';
import { CliUsageError } from '../usage-error.js';
import { terminalJson } from '../terminal-text.js';

/** Parses `--limit` as a whole number from `min` to `max`. */
function limitOption(max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < 1 || n > max) {
      throw new CliUsageError(`--limit ${value}: expected a whole number from 1 to ${max}`);
    }
    return n;
  };
}

/** Parses `--state`. */
function stateOption(value: string): ListState {
  if (!(LIST_STATES as readonly string[]).includes(value)) {
    throw new CliUsageError(`--state ${value}: expected one of ${LIST_STATES.join(', ')}`);
  }
  return value as ListState;
}

/** Writes one JSON line on stdout. */
function printLine(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}

/** Writes where to go on from on stderr. */
function printNext(cursor: string | undefined): void {
  if (cursor !== undefined) process.stderr.write(`next ${cursor}\n`);
}

/**
 * An abort signal for SIGINT and SIGTERM while `run` runs: the command stops where it stands and
 * still reports its cursor, instead of dying between an event and the cursor after it.
 */
async function untilInterrupted(run: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await run(stop.signal);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

interface EventsOptions {
  after?: string;
  follow?: boolean;
  limit?: number;
}

interface PrescriptionsOptions {
  state?: ListState;
  after?: string;
  limit?: number;
  all?: boolean;
}

/** Registers `events` and `prescriptions` on `program`. */
export function registerFeedCommands(program: Command): void {
  program
    .command('events')
    .description(
      'print the events you may see, one JSON line each, and the cursor to resume from ' +
        '(stderr: next <cursor>); --follow keeps printing new ones until interrupted',
    )
    .option('--after <cursor>', 'start after this cursor (a next printed before)')
    .option('--follow', 'after the events so far, print new ones as they happen (live stream)')
    .option('--limit <n>', 'stop after this many events', limitOption(Number.MAX_SAFE_INTEGER))
    .action(async (o: EventsOptions) => {
      const config = loadConfig();
      await untilInterrupted(async (signal) => {
        const reader: FeedReader = {
          config,
          signal,
          cursor: o.after,
          count: 0,
          limit: o.limit,
          onEvent: (item) => {
            printLine(item);
            if (o.follow) printNext(item.cursor);
          },
          onReconnect: (ms, why) =>
            process.stderr.write(`erx: event stream: ${why}; reconnecting in ${ms} ms\n`),
        };
        try {
          if (o.follow) {
            await readToHead(reader);
            // Where the stream takes over: events from here on arrive as they happen.
            printNext(reader.cursor);
            await follow(reader);
          } else {
            await readToHead(reader);
          }
        } finally {
          printNext(reader.cursor);
        }
      });
    });

  program
    .command('prescriptions')
    .description(
      'list the prescriptions you issued (prescribers), one JSON line each, and the id to go ' +
        'on after (stderr: next <id>)',
    )
    .option('--state <state>', `only those ${LIST_STATES.join(' | ')}`, stateOption)
    .option('--after <id>', 'start after this prescription id (a next printed before)')
    .option('--limit <n>', 'prescriptions per page, 1 to 100 (default 20)', limitOption(100))
    .option('--all', 'every page, not only the first')
    .action(async (o: PrescriptionsOptions) => {
      const config = loadConfig();
      await untilInterrupted(async (signal) => {
        let after = o.after;
        do {
          const query = new URLSearchParams();
          if (o.state !== undefined) query.set('state', o.state);
          if (after !== undefined) query.set('after', after);
          if (o.limit !== undefined) query.set('limit', String(o.limit));
          const search = query.toString();
          const path = `/ePrescription/prescriptions${search === '' ? '' : `?${search}`}`;
          const answer = await callService(config, 'GET', path, { auth: true });
          const page = JSON.parse(answer.body.toString('utf8')) as PrescriptionList;
          for (const item of page.prescriptions) printLine(item);
          after = page.next;
        } while (o.all && after !== undefined && !signal.aborted);
        printNext(after);
      });
    });
}
