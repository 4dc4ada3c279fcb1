/**
 * ReDoS: every regular expression of `src/` — literals, `new RegExp` calls and
 * the JSON Schema `pattern`s, collected from the source with the TypeScript parser and from the
 * schemas themselves — and the schema formats and public parsers, each run against adversarial
 * strings of 16 to 100,000 characters: each run must cost at most 50 linear passes over 100,000
 * characters (`encodeURIComponent`, measured in the same run: about 10 ms on an idle 2-core
 * machine, more on a slower or busier one, see test/support/timing.ts), or else have grown no
 * faster than linearly since the previous size (`linearSince`). An input over budget is not
 * tried longer, so a regression fails fast instead of hanging the suite: an exponential pattern
 * fails at 24 characters, a quadratic one at 10,000. Timings are the best of a few runs (see
 * `timeMs`), so that a scheduling pause on a busy machine does not count as the pattern's cost, and
 * a time over budget is judged against the unit measured again at that moment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBasicCredentials, parseBearer } from '../../src/auth/index.js';
import {
  decodeChmed,
  prescriptionSchema,
  readChmed,
  validatePrescription,
} from '../../src/chmed16a/index.js';
import { schemaFormats } from '../../src/chmed16a/validate.js';
import {
  NAMED_SCHEMAS,
  CreateQuery,
  EventParams,
  ForceQuery,
  IdParams,
  ReasonQuery,
} from '../../src/api/index.js';
import { TraceIds, traceFor } from '../../src/http/trace.js';
import { parseLink, readForeignLink } from '../../src/link/index.js';
import { startTestServer } from '../support/server.js';
import { bestMsAsync, cpuMs, linearPassMs } from '../support/timing.js';
import { REGEX_TABLE } from './regex-table.js';
import type { RegexEntry } from './regex-table.js';
import { adversarialInputs, repeatTo } from './support/adversarial.js';
import { findSourceRegexes, fromLiteral } from './support/source-regexes.js';

/** The budget of one run, in linear passes over 100,000 characters (see {@link overBudget}). */
const BUDGET_PASSES = 50;
let budgetMs = BUDGET_PASSES * linearPassMs(100_000);

/**
 * Whether `ms` is over the budget: a time over it is judged again against the unit measured now,
 * so that a machine that has become busier since the last measure does not fail a linear pattern.
 */
function overBudget(ms: number): boolean {
  if (ms <= budgetMs) return false;
  budgetMs = BUDGET_PASSES * linearPassMs(100_000);
  return ms > budgetMs;
}
// The short rungs catch an exponential pattern (2^24 steps take well over 10 ms) before a long
// input could hang the suite; the long ones catch quadratic ones.
const SIZES = [16, 24, 1_000, 10_000, 100_000];

/**
 * The best CPU time of `run`, in ms: of two runs, or of seven when the first two are over budget.
 * A pattern that is really slow stays slow every time; a pause of a busy machine does not recur.
 */
function timeMs(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 7 && (i < 2 || best > budgetMs); i++) {
    best = Math.min(best, cpuMs(run));
  }
  return best;
}

interface Sweep {
  runs: number;
  slowest: { ms: number; what: string };
  over: string[];
}

/**
 * Runs `check` on the inputs `inputsFor(n)` for each size of {@link SIZES}; an input over budget
 * is recorded and not tried at the larger sizes.
 */
function sweep(
  name: string,
  inputsFor: (n: number) => string[],
  check: (input: string) => void,
  sweepState: Sweep,
): void {
  const failed = new Set<number>();
  const previous = new Map<number, { n: number; ms: number }>();
  for (const n of SIZES) {
    inputsFor(n).forEach((input, i) => {
      if (failed.has(i)) return;
      const ms = timeMs(() => {
        try {
          check(input);
        } catch {
          // Refusing the input is fine; only the time counts.
        }
      });
      sweepState.runs++;
      if (n === SIZES[SIZES.length - 1] && ms > sweepState.slowest.ms) {
        sweepState.slowest = { ms, what: `${name} #${i}` };
      }
      const before = previous.get(i);
      previous.set(i, { n, ms });
      if (overBudget(ms) && !linearSince(before, { n, ms })) {
        failed.add(i);
        sweepState.over.push(
          `${name}: input #${i} (${n} chars, ${JSON.stringify(input.slice(0, 24))}…) took ${ms.toFixed(1)} ms`,
        );
      }
    });
  }
}

/**
 * Whether the cost grew at most twice as fast as the input since the previous size: a linear
 * pattern with a high cost per character (a global replace of 100,000 matches) may be over budget,
 * an exponential or quadratic one grows far faster (256 times from 16 to 24 characters, 100 times
 * from 10,000 to 100,000).
 */
function linearSince(
  before: { n: number; ms: number } | undefined,
  now: { n: number; ms: number },
): boolean {
  if (before === undefined) return false;
  return now.ms / Math.max(before.ms, 0.001) <= (2 * now.n) / before.n;
}

function newSweep(): Sweep {
  return { runs: 0, slowest: { ms: 0, what: '' }, over: [] };
}

/** The RegExp an entry stands for (Ajv compiles `pattern`s with the `u` flag). */
function compile(entry: RegexEntry): RegExp {
  if (entry.builds) return entry.builds;
  return entry.text.startsWith('/') ? fromLiteral(entry.text) : new RegExp(entry.text, 'u');
}

/** Every `pattern` string and `format` name in a JSON Schema value. */
function schemaKeywords(
  value: unknown,
  out = { patterns: new Set<string>(), formats: new Set<string>() },
) {
  if (Array.isArray(value)) value.forEach((v) => schemaKeywords(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'pattern' && typeof v === 'string') out.patterns.add(v);
      else if (key === 'format' && typeof v === 'string') out.formats.add(v);
      else schemaKeywords(v, out);
    }
  }
  return out;
}

describe('ReDoS', () => {
  it('lists every regular expression of src/ and client/ in the table, and nothing else', () => {
    // The shipped client (`client/`) reads erx's answers with the CLI's own code: listed too.
    const found = [...findSourceRegexes('src'), ...findSourceRegexes('client')].map(
      (f) => `${f.where.split(':')[0]} ${f.text}`,
    );
    const listed = REGEX_TABLE.map((e) => `${e.file} ${e.text}`);
    const count = (list: string[]) =>
      list.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
    const foundCount = count(found);
    const unlisted = [...foundCount.keys()].filter((k) => !listed.includes(k));
    const stale = listed.filter((k) => !foundCount.has(k));
    console.log(
      `redos: ${found.length} regular expressions in src/, ${listed.length} table entries`,
    );
    assert.deepEqual(
      unlisted,
      [],
      'regular expressions in src/ missing from test/fuzz/regex-table.ts',
    );
    assert.deepEqual(stale, [], 'table entries no longer in src/');
    assert.ok(found.length >= 30, 'the source scan found too few regular expressions');
  });

  it('covers every pattern and format of the prescription and route schemas', () => {
    const routeSchemas = [
      ...NAMED_SCHEMAS,
      CreateQuery,
      EventParams,
      ForceQuery,
      IdParams,
      ReasonQuery,
    ];
    const { patterns, formats } = schemaKeywords([prescriptionSchema, routeSchemas]);
    const listed = new Set(REGEX_TABLE.map((e) => e.text));
    assert.deepEqual(
      [...patterns].filter((p) => !listed.has(p)),
      [],
    );
    assert.ok(patterns.size >= 3, `only ${patterns.size} schema patterns found`);
    assert.deepEqual([...formats].sort(), Object.keys(schemaFormats).sort());
  });

  it('runs every regular expression within the budget on 100,000-character adversarial strings', () => {
    const state = newSweep();
    for (const entry of REGEX_TABLE) {
      const re = compile(entry);
      const all = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
      sweep(
        `${entry.file} ${entry.text}`,
        (n) => adversarialInputs(re.source, n, entry.near?.(n) ?? []),
        (input) => {
          re.lastIndex = 0;
          re.test(input);
          // A global scan is what `replace`/`split` do: every start position is tried.
          input.replace(all, '');
        },
        state,
      );
    }
    console.log(
      `redos: ${REGEX_TABLE.length} regexes, ${state.runs} runs, ${state.over.length} over ${budgetMs.toFixed(1)} ms and superlinear; ` +
        `slowest at 100,000 chars ${state.slowest.ms.toFixed(2)} ms (${state.slowest.what})`,
    );
    assert.deepEqual(state.over, []);
  });

  it('runs the schema formats and the document validation within the budget on such strings', () => {
    const state = newSweep();
    for (const name of ['date', 'date-time'] as const) {
      const validate = schemaFormats[name].validate;
      const inputs = (n: number) => [
        ...adversarialInputs('0123456789-:T.Zz+ t', n),
        `2024-01-01T${repeatTo('1', n)}`,
        `2024-01-01${repeatTo('t', n)}`,
        `2024-01-01T00:00:00.${repeatTo('9', n)}Z!`,
      ];
      sweep(name, inputs, (s) => (validate as (s: string) => boolean)(s), state);
    }
    const sample = { Patient: { FName: 'a', LName: 'b', BDt: 'c' }, HcPerson: {}, HcOrg: {} };
    const fields = ['Auth', 'Dt', 'Id', 'Zsr', 'Rmk', 'Patient.Zip', 'HcPerson.Gln', 'HcOrg.Zip'];
    for (const field of fields) {
      const [outer, inner] = field.split('.') as [string, string | undefined];
      sweep(
        `validatePrescription ${field}`,
        (n) => adversarialInputs('^[0-9]{13}$ ^[0-9]{4,5}$ T:-', n).slice(0, 40),
        (s) => {
          const doc: Record<string, unknown> = structuredClone(sample);
          if (inner) (doc[outer] as Record<string, unknown>)[inner] = s;
          else doc[outer] = s;
          validatePrescription(doc);
        },
        state,
      );
    }
    console.log(
      `redos: formats and validation, ${state.runs} runs, slowest ${state.slowest.ms.toFixed(2)} ms (${state.slowest.what})`,
    );
    assert.deepEqual(state.over, []);
  });

  it('runs the public parsers within the budget on such strings', () => {
    const state = newSweep();
    const base = 'http://erx.test/rx/#';
    const sig = 'a'.repeat(128);
    const traceIds = new TraceIds();
    const parsers: [string, (s: string) => unknown, (n: number) => string[]][] = [
      [
        'parseLink',
        parseLink,
        (n) => [
          ...adversarialInputs('^[A-Za-z][A-Za-z0-9+.-]*:\\S+$#&i=t=s=chmed16a1%', n),
          `${base}CHMED16A1${repeatTo('A', n)}&i=x&t=1&s=${sig}`,
          `${base}CHMED16A1A&i=${repeatTo('%41', n)}&t=1&s=${sig}`,
          `${base}CHMED16A1A&i=${repeatTo('%', n)}&t=1&s=${sig}`,
          `${base}CHMED16A1A&i=x&t=${repeatTo('1', n)}&s=${sig}`,
          `${base}CHMED16A1A&i=x&t=1&s=${repeatTo('a', n)}`,
          `${base}${repeatTo('&', n)}`,
          `${repeatTo(' ', n / 2)}${base}A${repeatTo(' ', n / 2)}`,
          `${base}${repeatTo('CHMED16A1', n)}`,
        ],
      ],
      [
        'decodeChmed',
        decodeChmed,
        (n) => [
          ...adversarialInputs('^CHMED16A([01])', n),
          `CHMED16A1${repeatTo('A', n)}`,
          `CHMED16A1${repeatTo('AAA=', n)}`,
          `CHMED16A0${repeatTo('[', n)}`,
          `CHMED16A0{${repeatTo('"a":1,', n)}"b":}`,
          `CHMED16A0"${repeatTo('\\', n)}`,
          `CHMED16A0${repeatTo('{"__proto__":', n)}`,
        ],
      ],
      [
        'readForeignLink',
        readForeignLink,
        (n) => [
          ...adversarialInputs('^chmed16a[01].#&i=t=s=', n),
          `https://h.ch/#CHMED16A1${repeatTo('A', n)}&x`,
          `https://h.ch/#CHMED16A1A${repeatTo('&', n)}`,
          `https://h.ch/#CHMED16A1A${repeatTo('&i=x', n)}`,
          `https://h.ch/#CHMED16A1A&i=${repeatTo('%', n)}&t=${repeatTo('1', n)}&x`,
          `https://${repeatTo('a.', n)}/#CHMED16A1A&x`,
          `${repeatTo('a', n)}:#CHMED16A1A&x`,
        ],
      ],
      [
        'readChmed',
        readChmed,
        (n) => [
          ...adversarialInputs('^CHMED16A([01])', n),
          `CHMED16A1${repeatTo('A', n)}`,
          `CHMED16A1${repeatTo('A\n', n)}`,
          `CHMED16A1${repeatTo('\nCHMED16A1', n)}`,
          `CHMED16A1${repeatTo('\nCHMED16A', n)}`,
          `CHMED16A1${repeatTo('-_', n)}`,
          `CHMED16A1A${repeatTo('=', n)}`,
        ],
      ],
      [
        'parseBearer',
        parseBearer,
        (n) => [
          ...adversarialInputs('^([A-Za-z]+) +(.*)$ acs oauth:', n),
          `Bearer${repeatTo(' ', n)}x`,
          `Bearer acs:${repeatTo('A', n)}!`,
          `${repeatTo('B', n)} x`,
        ],
      ],
      [
        'parseBasicCredentials',
        parseBasicCredentials,
        (n) => [
          ...adversarialInputs('^([A-Za-z]+) +([A-Za-z0-9+/]+={0,2})$', n),
          `Basic ${repeatTo('QUFB', n)}`,
          `Basic ${repeatTo('A', n)}!`,
          `Basic${repeatTo(' ', n)}QQ==`,
          `Basic ${Buffer.from(`${repeatTo('%', n / 2)}:${repeatTo('+', n / 2)}`).toString('base64')}`,
        ],
      ],
      [
        'traceFor',
        (header: string) => traceFor(header, traceIds),
        (n) => [...adversarialInputs('^[0-9a-f]{2}-[0-9a-f]{32}-', n), `00-${repeatTo('ab', n)}-`],
      ],
    ];
    for (const [name, parse, inputs] of parsers) sweep(name, inputs, parse, state);
    console.log(
      `redos: public parsers ${parsers.map((p) => p[0]).join(', ')}: ${state.runs} runs, ` +
        `slowest ${state.slowest.ms.toFixed(2)} ms (${state.slowest.what})`,
    );
    assert.deepEqual(state.over, []);
  });

  it('checks an Idempotency-Key of 100,000 characters within the budget beyond a short key (through the route)', async () => {
    const server = await startTestServer();
    try {
      const app = server.runtime.app;
      const send = (key: string) =>
        app.inject({
          method: 'POST',
          url: '/ePrescription/lock/00000000-0000-4000-8000-000000000000',
          headers: {
            authorization: `Bearer acs:${server.pharmacist.token}`,
            'idempotency-key': key,
          },
        });
      await send('warm-up');
      // The same request with a short key, measured in the same run: the long key may add the
      // budget of one regular expression run, no more.
      const baselineMs = await bestMsAsync(() => send('short-key'), 7);
      const inputs = [
        ...adversarialInputs('^[\\x21-\\x7e]{1,200}$', 100_000).slice(0, 60),
        `${repeatTo('x', 100_000)} `,
      ];
      let slowest = 0;
      const over: string[] = [];
      for (const [i, key] of inputs.entries()) {
        // The best of a few requests, as in `timeMs`: the whole request path is timed here.
        let ms = Infinity;
        let answer = await send(key);
        for (let run = 0; run < 7 && (run < 2 || ms > baselineMs + budgetMs); run++) {
          const started = performance.now();
          answer = await send(key);
          ms = Math.min(ms, performance.now() - started);
        }
        slowest = Math.max(slowest, ms);
        assert.ok(answer.statusCode < 500, answer.body);
        if (overBudget(ms - baselineMs)) over.push(`#${i} ${ms.toFixed(1)} ms`);
      }
      console.log(
        `redos: Idempotency-Key, ${inputs.length} requests, slowest ${slowest.toFixed(2)} ms ` +
          `(a short key ${baselineMs.toFixed(2)} ms, budget ${budgetMs.toFixed(1)} ms)`,
      );
      assert.deepEqual(over, []);
    } finally {
      await server.close();
    }
  });
});
