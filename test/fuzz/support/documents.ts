/**
 * JSON documents and values for the fuzzer: mutated prescriptions (SPEC.md §4) and dispense
 * bodies (seed §4.1), written as raw JSON text so that duplicate keys, `__proto__` keys, invalid
 * numbers and deep nesting, which no JavaScript object can hold, reach the server as sent.
 */
import { randomUUID } from 'node:crypto';
import { SUBSTITUTE, roomyPrescription, samplePrescription } from '../../support/fixtures.js';
import { mutateTextTimes } from './mutate.js';
import type { Prng } from './prng.js';
import { rep } from './repeat.js';

/** Key names whose appearance on `Object.prototype` would show pollution. */
export const POLLUTION_MARKERS = ['polluted', 'erxFuzzPolluted', 'isAdmin'] as const;

/** `depth` levels of arrays or objects (depth 1 is `[]`). */
export function nested(depth: number, kind: 'array' | 'object' = 'array'): string {
  if (kind === 'array') return rep('[', depth) + rep(']', depth);
  return rep('{"a":', depth - 1) + '{}' + rep('}', depth - 1);
}

/** Raw JSON values that are odd in type, size, number range, nesting or key names. */
export function weirdValue(rng: Prng): string {
  const marker = rng.pick(POLLUTION_MARKERS);
  return rng.pick([
    'null',
    'true',
    'false',
    '0',
    '-1',
    '1.5',
    '1e308',
    '-1e308',
    '1e309',
    '9007199254740993',
    '-0',
    '1e-400',
    '10001',
    '""',
    `"${rep('x', rng.pick([100, 5000, 30000]))}"`,
    '"\\u0000"',
    '"\\ud800"',
    '"\u{1f48a}"',
    '[]',
    '{}',
    '[null]',
    nested(rng.pick([10, 31, 32, 33, 100, 1000, 10000]), rng.pick(['array', 'object'] as const)),
    `{"__proto__":{"${marker}":"yes"}}`,
    `{"constructor":{"prototype":{"${marker}":"yes"}}}`,
    `{"prototype":{"${marker}":"yes"}}`,
    '{"a":1,"a":2,"a":{"b":3}}',
    `[${rep('{},', 9999)}{}]`,
    '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
    '"__proto__"',
    '"constructor"',
    'NaN',
    '01',
    'tru',
    "'x'",
    '[1,]',
    '{"a" 1}',
    '"\\x41"',
  ]);
}

/**
 * The date of every document: the start of the current UTC day, the same in every process of a
 * run (request i stays the same however the run is split), and far from expiring (SPEC.md §10).
 */
const DT = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000).toISOString();
/** The sample as it is: one package of MED_A, eight of MED_B, which must not be substituted. */
const SAMPLE = samplePrescription({ Dt: DT });
/** The sample with room for every dispensation the fuzzer sends, substitutes allowed. */
const ROOMY = roomyPrescription({ Dt: DT });

/**
 * A valid prescription (SPEC.md §4) with a fresh UUID: mostly roomy, so that dispensations keep
 * being accepted (and their events cancelled), else the sample, whose rules (SPEC.md §10) soon
 * refuse them.
 */
export function validDocument(rng: Prng): Record<string, unknown> {
  const doc = structuredClone(rng.chance(0.75) ? ROOMY : SAMPLE);
  // Fresh ids from the PRNG keep a run reproducible; randomUUID would not.
  doc.Id = rng.chance(0.999) ? uuidFrom(rng) : randomUUID();
  return doc;
}

function uuidFrom(rng: Prng): string {
  const hex = rng.bytes(16);
  hex[6] = ((hex[6] ?? 0) & 0x0f) | 0x40;
  hex[8] = ((hex[8] ?? 0) & 0x3f) | 0x80;
  const h = hex.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

type Path = readonly (string | number)[];

/** Every path into `value` (objects and arrays), the root included. */
function paths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

const RAW = '\u0001RAW\u0001';
const RAW_JSON = JSON.stringify(RAW);

/** Serialises `doc` with the value at `path` replaced by the raw JSON `raw`. */
function withRaw(doc: unknown, path: Path, raw: string, op: 'set' | 'add'): string {
  if (path.length === 0) return raw;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (op === 'add' && !Array.isArray(parent)) {
    // A new key with the raw value, after the existing ones: may duplicate an existing key.
    const text = JSON.stringify(copy);
    const target = JSON.stringify(parent);
    const extended = `${target.slice(0, -1)}${target.length > 2 ? ',' : ''}${JSON.stringify(String(last))}:${raw}}`;
    return text.replace(target, () => extended);
  }
  parent[last] = RAW;
  return JSON.stringify(copy).replace(RAW_JSON, () => raw);
}

/** One structural edit of `doc` as raw JSON text. */
export function mutateDocument(rng: Prng, doc: Record<string, unknown>): string {
  const all = paths(doc);
  const path = rng.pick(all);
  switch (rng.int(6)) {
    case 0: {
      if (path.length === 0) return '{}';
      const copy = structuredClone(doc) as Record<string | number, unknown>;
      let parent: Record<string | number, unknown> = copy;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      delete parent[path[path.length - 1] as string | number];
      return JSON.stringify(copy);
    }
    case 1:
    case 2:
      return withRaw(doc, path, weirdValue(rng), 'set');
    case 3: {
      const key = rng.pick(['__proto__', 'constructor', 'Unknown', 'Id', 'Zsr', '', 'rev', 'x']);
      const parentPath = path.slice(0, -1);
      return withRaw(doc, [...parentPath, key], weirdValue(rng), 'add');
    }
    case 4: {
      const meds = (doc.Medicaments as unknown[]) ?? [];
      const count = rng.pick([0, 51, 200, 2000]);
      return JSON.stringify({ ...doc, Medicaments: Array.from({ length: count }, () => meds[0]) });
    }
    default:
      return mutateTextTimes(rng, JSON.stringify(doc), 3);
  }
}

/**
 * A document for a well-signed hostile link: odd `Id`s (types, prototype names, an existing id
 * with other content), forbidden keys, or a random edit of a valid one.
 */
export function rawDocument(rng: Prng, knownId: string | undefined): string {
  const doc = validDocument(rng);
  const id = rng.pick([
    'null',
    '1',
    '[]',
    '{}',
    '"__proto__"',
    '"constructor"',
    '"toString"',
    '""',
    `"${rep('f', 5000)}"`,
    JSON.stringify(knownId ?? 'x'),
    JSON.stringify(knownId ?? 'x'),
    '"\\ud800"',
  ]);
  if (rng.chance(0.5)) return withRaw(doc, ['Id'], id, 'set');
  return mutateDocument(rng, doc);
}

/** A valid dispense body for medicaments `ids` (seed §4.1): 1 to 3 items, sometimes substitutes. */
export function validDispense(rng: Prng, ids: readonly string[]): unknown[] {
  return Array.from({ length: rng.range(1, 3) }, () => {
    const item: Record<string, unknown> = { id: rng.pick(ids), amount: rng.range(1, 3) };
    if (rng.chance(0.2)) {
      item.substitute = SUBSTITUTE;
      item.substitute_id_type = rng.range(1, 3);
    }
    return item;
  });
}

/** A mutated dispense body as raw JSON text. */
export function mutateDispense(rng: Prng, ids: readonly string[]): string {
  const items = validDispense(rng, ids);
  // Case 0, the 10,000-item bodies, costs the most to refuse: half as often as the others.
  switch (rng.int(8) || rng.int(2)) {
    case 0:
      return rng.pick([
        `[${rep('{"id":"a","amount":1},', 9999)}{"id":"a","amount":1}]`,
        `[${rep('{},', 9999)}{}]`,
        `[${rep('1,', 9999)}1]`,
        `[${JSON.stringify(items[0]).concat(',').repeat(50)}${JSON.stringify(items[0])}]`,
      ]);
    case 1:
      return `[{"id":${JSON.stringify(ids[0] ?? 'x')},"amount":1,"amount":${weirdValue(rng)}}]`;
    case 2: {
      const marker = rng.pick(['polluted', 'erxFuzzPolluted']);
      return rng.pick([
        `[{"id":"x","amount":1,"__proto__":{"${marker}":1}}]`,
        `{"__proto__":{"${marker}":1}}`,
        `[{"constructor":{"prototype":{"${marker}":1}},"id":"x","amount":1}]`,
        `[{"__proto__":[]}]`,
      ]);
    }
    case 3:
      return rng.pick([
        nested(rng.pick([33, 1000, 30000])),
        nested(rng.pick([33, 5000]), 'object'),
      ]);
    case 4:
    case 5:
      return mutateDocument(rng, { items } as Record<string, unknown>).replace(
        /^\{"items":(.*)\}$/s,
        '$1',
      );
    case 6:
      return weirdValue(rng);
    default:
      return mutateTextTimes(rng, JSON.stringify(items), 3);
  }
}
