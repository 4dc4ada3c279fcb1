/**
 * The bench document is one erx takes as a real deployment would (SPEC.md §10): dated when the
 * bench runs (the example's own date has long expired), with enough packages of the dispensed
 * medicament for every dispense of a run, its substitution ban and the other medicament as the
 * example has them.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ErxError } from '../../src/errors.js';
import { readPrescriptionForCreate } from '../../src/http/read-bodies.js';
import type { VerifyFull } from '../../src/service/index.js';
import { DOCTOR, PHARMACIST, as, withService } from '../../test/support/service.js';
import { documentText, loadSample } from './document.js';

const EXAMPLE = new URL('../../examples/prescription.json', import.meta.url);

interface ExampleMedicament {
  Id: string;
  NbPack?: number;
  Rep?: number;
  Subs?: number;
}

function example(): { Medicaments: ExampleMedicament[] } {
  return JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { Medicaments: ExampleMedicament[] };
}

test('the bench document is dated when asked and prescribes 2,500 packages of what it dispenses', () => {
  const at = new Date();
  const sample = loadSample(at);
  assert.equal(sample.document.Dt, at.toISOString());
  const [first, second] = example().Medicaments;
  // The example's medicament with the most packages (2 × (1 + 3)) is the one dispensed.
  assert.equal(sample.medicamentId, second!.Id);
  assert.equal(sample.dispensable, 100 * (1 + 24));
  assert.deepEqual(sample.medicaments, [
    { Id: first!.Id, IdType: 2, NbPack: first!.NbPack, Rep: first!.Rep, Subs: first!.Subs },
    { Id: second!.Id, IdType: 2, NbPack: 100, Rep: 24, Subs: second!.Subs },
  ]);
  const id = randomUUID();
  const created = JSON.parse(documentText(sample.text, id)) as Record<string, unknown>;
  assert.equal(created.Id, id);
  assert.equal(created.Dt, at.toISOString());
});

test('erx creates the bench document, and it allows as many dispenses as it prescribes', () =>
  withService(async ({ service }) => {
    // The first of this month: 24 months later is a day every month has.
    const now = new Date();
    const sample = loadSample(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
    const text = (): string => documentText(sample.text, randomUUID());

    // The example as it stands is refused: its Dt is more than its validity ago.
    const stale = JSON.stringify({ ...example(), Id: randomUUID() });
    await assert.rejects(
      service.create(readPrescriptionForCreate(stale), as(DOCTOR), { asQrCode: false }),
      (error: unknown) =>
        error instanceof ErxError &&
        error.code === 'bad_request' &&
        error.violations?.some((v) => v.path === '/Dt') === true,
    );

    const { link, prescriptionId } = await service.create(
      readPrescriptionForCreate(text()),
      as(DOCTOR),
      { asQrCode: false },
    );
    const item = { id: sample.medicamentId, amount: 1 };
    const dispense = (amount: number): Promise<unknown> =>
      service.dispense(prescriptionId, [{ ...item, amount }], { force: false }, as(PHARMACIST));
    await dispense(1);
    await dispense(sample.dispensable - 1);
    await assert.rejects(
      dispense(1),
      (error: unknown) => error instanceof ErxError && error.causeCode === 'quantity_exceeded',
    );
    const answer = (await service.verify(link, PHARMACIST)).answer as VerifyFull;
    assert.equal(answer.valid, true);
    assert.equal(answer.expired, false);
    // Its largest Rep, 24 months, outlasts the default year.
    const expires = new Date(sample.document.Dt);
    expires.setUTCMonth(expires.getUTCMonth() + 24);
    assert.equal(Date.parse(answer.expires_at), expires.getTime());
    const dispensed = answer.medicaments.find((m) => m.id === sample.medicamentId);
    assert.deepEqual(dispensed, {
      id: sample.medicamentId,
      prescribed: 2_500,
      dispensed: 2_500,
      remaining: 0,
      substitution_allowed: false,
    });
  }));
