/**
 * What IG eMediplan publishes of CHMED23A (test/fixtures/chmed23a/ig-emediplan.json, each with its
 * source): the ChTransmissionFormat year 23 example string and its 4-part split, and the example
 * documents of `chmed23a/examples.md`. Also the IG's serialisation (gzip, base64, prefix) and a
 * split into parts, as a practice system would print them.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FixtureSource } from './foreign-links.js';

/** One example document of the IG. */
export interface Chmed23Example {
  name: string;
  source: FixtureSource;
  /** 1 a medication plan, 3 a prescription. */
  medType: number;
  json: Record<string, unknown>;
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/chmed23a/ig-emediplan.json', import.meta.url), 'utf8'),
) as {
  transmission: { source: FixtureSource; whole: string; parts: string[] };
  documents: Chmed23Example[];
};

/** The IG's year 23 example string, in one piece. */
export const IG_WHOLE: string = fixtures.transmission.whole;

/** The same document in the IG's 4 parts, in order. */
export const IG_PARTS: readonly string[] = fixtures.transmission.parts;

/** The IG's example documents (three medication plans, one prescription). */
export const IG_EXAMPLES: readonly Chmed23Example[] = fixtures.documents;

/** The IG's example prescription (`medType` 3). */
export const IG_PRESCRIPTION: Chmed23Example = fixtures.documents.find((d) => d.medType === 3)!;

/** `CHMED23A.` and the base64 of the gzip of `doc`'s JSON, as the IG's serialisation writes it. */
export function chmed23String(doc: object): string {
  return `CHMED23A.${gzipSync(JSON.stringify(doc)).toString('base64')}`;
}

/** `whole` (a `CHMED23A.` string) split into `count` parts `CHMED23A.i/n.…`, in order. */
export function splitChmed23(whole: string, count: number): string[] {
  const data = whole.slice('CHMED23A.'.length);
  const size = Math.ceil(data.length / count);
  return Array.from(
    { length: count },
    (_, i) => `CHMED23A.${i + 1}/${count}.${data.slice(i * size, (i + 1) * size)}`,
  );
}

/** A GLN of 13 digits for the prescriber (the IG's example has 12). */
export const PRESCRIBER_GLN = '7601000234438';

/**
 * The IG's example prescription made what erx creates from: a UUID `id`, a 13-digit GLN and
 * today's date (its own is long past), with `overrides` on top.
 */
export function sampleChmed23Prescription(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const doc = structuredClone(IG_PRESCRIPTION.json);
  const hcPerson = doc.hcPerson as Record<string, unknown>;
  return {
    ...doc,
    id: randomUUID(),
    dt: new Date().toISOString(),
    hcPerson: { ...hcPerson, gln: PRESCRIBER_GLN },
    ...overrides,
  };
}

/** Text that barely compresses, `n` words of it: a link grows with it. */
export function noise(n: number): string {
  return Array.from({ length: n }, (_, i) => ((i * 7919) % 9973).toString(36)).join(' ');
}

/** A prescription whose link is too large for one QR code: long, varied remarks. */
export function largeChmed23Prescription(): Record<string, unknown> {
  const doc = sampleChmed23Prescription();
  return { ...doc, rmk: noise(900) + (doc.meds as unknown[]).length };
}
