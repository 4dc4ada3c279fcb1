/**
 * Dispense with event streams held open: the dispense figure measured on one erx without streams
 * and with {@link EVENT_STREAMS} streams open against it, in turns (without, with, with, without,
 * …), so that a machine whose speed drifts moves both sides alike. The ratio is the mean of the
 * passes with streams ÷ the mean of those without.
 *
 * Who holds the streams: erx lets one subject hold 5, so 200 streams are 40 subjects' 5 each. The
 * acting pharmacist's 5 and the issuing prescriber's 5 see every dispense; the other 190 belong
 * to practices and pharmacies that take no part in the dispenses (`erx/clients.ts`): they see none
 * of them, but erx wakes them and reads the feed for them all the same, which is what a busy
 * instance's streams mostly are.
 */
import type { Manifest } from './data/dataset.js';
import type { SampleDocument } from './data/document.js';
import { bearerFor } from './erx/clients.js';
import type { StreamClient } from './erx/clients.js';
import { bestPass, runFigure } from './figures.js';
import type { ErxTarget, Figure, FigureSettings, PoolCursor } from './figures.js';
import { openEventStreams } from './load/event-streams.js';
import type { StreamCount } from './load/event-streams.js';

/** Streams one subject may hold open at once (erx's bound). */
const STREAMS_PER_SUBJECT = 5;

/** Streams open during the passes with streams. */
export const EVENT_STREAMS = 200;

/** Target: dispense with the streams open ÷ without, at least. */
export const STREAMS_TARGET = 0.9;

/** After a pass with streams: time for the last events to reach them (the feed clock's wakes). */
const SETTLE_MS = 750;

/** The figure, both conditions, as the results record it. */
export interface StreamsFigure {
  readonly streams: number;
  readonly subjects: number;
  /** Streams that see every dispense: the acting pharmacist's and the issuing prescriber's. */
  readonly seeing: number;
  /** Each condition over its passes: the best pass's latencies, every pass's rate. */
  readonly without: Figure;
  readonly with: Figure;
  /** The conditions in the order measured. */
  readonly order: ('without' | 'with')[];
  /** Mean requests/s of the passes with streams ÷ mean of those without. */
  readonly ratio: number;
  /** Mean erx CPU per dispense without ÷ with (the same comparison in CPU time). */
  readonly cost_ratio: number;
  /** erx CPU per dispense of each pass, µs, by condition in the order measured. */
  readonly cpu_us_per_request: { readonly without: number[]; readonly with: number[] };
  /** Events received per stream over all passes with streams. */
  readonly events_received: {
    readonly seeing_min: number;
    readonly seeing_max: number;
    /** All the other streams together (0: they saw nothing, as they should). */
    readonly others: number;
  };
}

/** The `Authorization` of each of the 200 streams, the seeing ones first. */
export async function streamAuthorizations(
  target: ErxTarget,
  streamers: readonly StreamClient[],
): Promise<{ authorizations: string[]; seeing: number; subjects: number }> {
  // A few at a time: erx counts attempts still being checked against an address's budget of
  // failed authentications (10), and answers 429 past it.
  const others: string[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let at = next++; at < streamers.length; at = next++) {
      const client = streamers[at]!;
      others[at] = await bearerFor(target.url, client.clientId, client.secret);
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
  const subjects = [target.pharmacist, target.prescriber, ...others];
  const authorizations = subjects.flatMap((a) => Array<string>(STREAMS_PER_SUBJECT).fill(a));
  if (authorizations.length !== EVENT_STREAMS) {
    throw new Error(`${authorizations.length} streams from ${subjects.length} subjects, not 200`);
  }
  return { authorizations, seeing: 2 * STREAMS_PER_SUBJECT, subjects: subjects.length };
}

const mean = (values: readonly number[]): number =>
  values.reduce((sum, v) => sum + v, 0) / values.length;

/** Without in passes 0, 3, 4, 7…, with in 1, 2, 5, 6…: every with has a without beside it. */
export function conditionOf(pass: number): 'without' | 'with' {
  return pass % 4 === 1 || pass % 4 === 2 ? 'with' : 'without';
}

export interface StreamsFigureInput {
  readonly target: ErxTarget;
  readonly streams: { authorizations: string[]; seeing: number; subjects: number };
  readonly manifest: Manifest;
  readonly sample: SampleDocument;
  readonly cursor: PoolCursor;
  readonly settings: FigureSettings;
  /** Passes of each condition (at least 2). */
  readonly passes: number;
}

/**
 * Measures dispense without and with the streams, in turns; throws when a stream is refused or
 * ended by erx, or when a stream that should see the dispenses received none.
 */
export async function measureStreamsFigure(
  input: StreamsFigureInput,
  onPass: (condition: 'without' | 'with', figure: Figure) => void,
): Promise<StreamsFigure> {
  const { target, streams, manifest, sample, cursor, settings } = input;
  const passes = Math.max(2, input.passes);
  const order = Array.from({ length: 2 * passes }, (_, i) => conditionOf(i));
  const figures: { without?: Figure; with?: Figure } = {};
  const cpu: { without: number[]; with: number[] } = { without: [], with: [] };
  const received: StreamCount[] = streams.authorizations.map(() => ({
    events: 0,
    bytes: 0,
    endedByErx: false,
  }));
  let open: Awaited<ReturnType<typeof openEventStreams>> | undefined;
  const closeStreams = async (): Promise<void> => {
    if (open === undefined) return;
    const counts = open.counts();
    await open.close();
    open = undefined;
    counts.forEach((c, i) => {
      const r = received[i]!;
      received[i] = {
        events: r.events + c.events,
        bytes: r.bytes + c.bytes,
        endedByErx: r.endedByErx || c.endedByErx,
      };
    });
  };
  try {
    for (const condition of order) {
      if (condition === 'with') open ??= await openEventStreams(target.url, streams.authorizations);
      else await closeStreams();
      const figure = await runFigure('dispense', target, manifest, sample, cursor, settings);
      if (condition === 'with') await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      figures[condition] = bestPass(figures[condition], figure);
      cpu[condition].push(figure.cpu_us_per_request);
      onPass(condition, figure);
    }
  } finally {
    await closeStreams();
  }
  const without = figures.without!;
  const withStreams = figures.with!;
  const seeing = received.slice(0, streams.seeing).map((r) => r.events);
  const ended = received.filter((r) => r.endedByErx).length;
  if (ended > 0) throw new Error(`dispense with streams: erx ended ${ended} of the streams`);
  if (Math.min(...seeing) === 0) {
    throw new Error(
      'dispense with streams: a stream of the acting pharmacy or the issuer saw no event',
    );
  }
  return {
    streams: streams.authorizations.length,
    subjects: streams.subjects,
    seeing: streams.seeing,
    without,
    with: withStreams,
    order,
    ratio: mean(withStreams.passes) / mean(without.passes),
    cost_ratio: mean(cpu.without) / mean(cpu.with),
    cpu_us_per_request: cpu,
    events_received: {
      seeing_min: Math.min(...seeing),
      seeing_max: Math.max(...seeing),
      others: received.slice(streams.seeing).reduce((sum, r) => sum + r.events, 0),
    },
  };
}
