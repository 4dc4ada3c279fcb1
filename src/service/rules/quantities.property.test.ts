/**
 * The quantities of SPEC.md §10 as a property, over both document releases: random prescriptions
 * (one to three medicaments; CHMED16A NbPack 1–3, Rep 0–2, Subs 0 or 1; CHMED23A nbPack 1–3,
 * reps a count, a duration or both, isNotSub; each possibly absent) take random sequences of partial, full,
 * forced and cancelled dispensations through the service itself over SQLite in memory. A model
 * written from the specification alone (`test/support/quantities-model.ts`), fed only the events
 * the service accepted, predicts
 * the outcome of every call and, after every step, what verify answers: the medicament table, the
 * dispensed flag and the event that completed the prescription.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Principal } from '../../auth/index.js';
import { isErxError } from '../../errors.js';
import { readPrescriptionForCreate } from '../../http/read-bodies.js';
import { SUBSTITUTE, samplePrescription } from '../../../test/support/fixtures.js';
import {
  DOCTOR,
  OTHER_PHARMACIST,
  PHARMACIST,
  as,
  withService,
} from '../../../test/support/service.js';
import { caseArb } from '../../../test/support/quantities-cases.js';
import {
  MEDICAMENT_IDS,
  expectCancel,
  expectDispense,
  fold,
  prescribed,
  refused,
  substitutionAllowed,
} from '../../../test/support/quantities-model.js';
import { sampleChmed23Prescription } from '../../../test/support/chmed23a-fixtures.js';
import type {
  Expected,
  Medicament,
  ModelEvent,
  Op,
} from '../../../test/support/quantities-model.js';
import type { PrescriptionService } from '../prescription-service.js';
import type { DispenseItem, EventView, VerifyFull } from '../types.js';

/** Runs per release: each has a property of its own. */
const RUNS = 400;

/** An id no generated document prescribes. */
const UNKNOWN_ID = '7680000000097';

// ---- Running a case through the service ----

const BY_SUB = new Map([DOCTOR, PHARMACIST, OTHER_PHARMACIST].map((p) => [p.sub, p]));

/** The items an op sends; undefined for a full dispensation. */
function itemsOf(op: Extract<Op, { kind: 'partial' | 'full' }>, count: number) {
  if (op.kind === 'full') return undefined;
  return op.items.map((item): DispenseItem => {
    const id = item.medicament < 0 ? UNKNOWN_ID : MEDICAMENT_IDS[item.medicament % count]!;
    return item.substitute
      ? { id, amount: item.amount, substitute: SUBSTITUTE, substitute_id_type: 2 }
      : { id, amount: item.amount };
  });
}

/** The outcome of an awaited call, as the model writes it. */
async function outcomeOf(call: Promise<EventView>): Promise<EventView | Expected> {
  try {
    return await call;
  } catch (error) {
    assert.ok(isErxError(error), `not an ErxError: ${String(error)}`);
    return refused(error.code, error.causeCode);
  }
}

/** Counts one more `what` in `seen`. */
const tally = (seen: Map<string, number>, what: string): void =>
  void seen.set(what, (seen.get(what) ?? 0) + 1);

interface Case {
  readonly service: PrescriptionService;
  readonly count: () => Promise<number>;
  readonly link: string;
  readonly id: string;
  readonly medicaments: readonly Medicament[];
  readonly events: ModelEvent[];
  /** How often each outcome was seen over all runs, so a test that exercised nothing fails. */
  readonly seen: Map<string, number>;
}

/** Applies `op` and checks its outcome against the model's prediction. */
async function step(c: Case, op: Op): Promise<void> {
  const state = fold(c.medicaments, c.events);
  let expected: Expected;
  let caller: Principal;
  let call: Promise<EventView>;
  let items: readonly DispenseItem[] | undefined;
  let target: ModelEvent | undefined;
  if (op.kind === 'cancel') {
    target = c.events[op.target % c.events.length]!;
    const owner = BY_SUB.get(target.actor)!;
    caller = op.byOwner ? owner : owner === PHARMACIST ? OTHER_PHARMACIST : PHARMACIST;
    expected = expectCancel(state, target, caller);
    call = c.service.cancel(c.id, target.id, as(caller));
  } else {
    caller = op.byOther ? OTHER_PHARMACIST : PHARMACIST;
    items = itemsOf(op, c.medicaments.length);
    expected = expectDispense(c.medicaments, state, op, items);
    const options = { force: op.force, ...(op.reason === undefined ? {} : { reason: op.reason }) };
    call = c.service.dispense(c.id, items, options, as(caller));
  }
  const before = await c.count();
  const got = await outcomeOf(call);
  const after = await c.count();
  const what = `${op.kind}${op.kind !== 'cancel' && op.force ? ' forced' : ''}`;
  if (!expected.accepted) {
    assert.deepEqual(got, expected, `${what} must be refused`);
    assert.equal(after, before, 'a refused call appended an event');
    tally(c.seen, `refused ${expected.cause}`);
    return;
  }
  assert.ok('id' in got, `${what} must be accepted, got ${JSON.stringify(got)}`);
  assert.equal(after, before + 1, 'an accepted call appends exactly one event');
  if (op.kind === 'cancel') {
    assert.deepEqual(got.event_data, { EventId: target!.id });
  } else {
    // SPEC.md §10: unforced events keep `{}`; a forced one records what it overrode and why.
    const data = op.force
      ? { force: true, overrides: expected.overrides, ...(op.reason && { reason: op.reason }) }
      : {};
    assert.deepEqual(got.event_data, data);
    assert.deepEqual(got.dispenses, items);
    for (const code of expected.overrides) tally(c.seen, `forced over ${code}`);
  }
  assert.equal(got.actor, caller.sub);
  tally(c.seen, `accepted ${got.type}`);
  if (target?.type === 'cancel') tally(c.seen, 'accepted cancel of a cancel');
  const closing = op.kind === 'full' && !op.force && state.allReached && !state.standingFull;
  if (closing) tally(c.seen, 'accepted closing step');
  c.events.push({
    id: got.id,
    type: got.type,
    actor: got.actor,
    actorName: got.actor_name,
    timestamp: got.timestamp,
    items: items ?? [],
    forced: op.kind !== 'cancel' && op.force,
    ...(op.kind === 'cancel' ? { target: target!.id } : {}),
  });
}

/** Verifies as a pharmacist and compares the answer with the model. */
async function check(c: Case): Promise<void> {
  const state = fold(c.medicaments, c.events);
  const answer = (await c.service.verify(c.link, PHARMACIST)).answer as VerifyFull;
  assert.equal(answer.valid, true);
  assert.equal(answer.events.length, c.events.length);
  assert.equal(await c.count(), c.events.length);
  assert.deepEqual(
    answer.medicaments,
    c.medicaments.map((m, i) => ({
      id: MEDICAMENT_IDS[i],
      prescribed: prescribed(m),
      dispensed: state.dispensed[i],
      remaining: Math.max(0, prescribed(m) - state.dispensed[i]!),
      substitution_allowed: substitutionAllowed(m),
    })),
  );
  for (const m of answer.medicaments) {
    assert.ok(m.remaining >= 0, `${m.id}: remaining ${m.remaining}`);
    if (!state.standingForced) {
      assert.ok(m.dispensed <= m.prescribed, `${m.id}: ${m.dispensed} of ${m.prescribed} unforced`);
    }
  }
  // SPEC.md §5: dispensed while a full dispensation stands or every medicament is reached.
  const dispensed = state.allReached || state.standingFull;
  assert.equal(answer.dispensed, dispensed);
  assert.equal(state.completion !== undefined, dispensed, 'the model is consistent');
  assert.equal(answer.dispensed_at, state.completion?.timestamp);
  assert.equal(answer.dispensed_by, state.completion?.actor);
  if (dispensed) tally(c.seen, 'dispensed');
}

/** The fields of one medicament, each absent where the case leaves it out. */
function medicamentFields(m: Medicament, id: string): Record<string, unknown> {
  const nbPack = m.format === 'CHMED16A' ? 'NbPack' : 'nbPack';
  const fields: Record<string, unknown> = m.nbPack === undefined ? {} : { [nbPack]: m.nbPack };
  if (m.format === 'CHMED16A') {
    return {
      Id: id,
      IdType: 2,
      ...fields,
      ...(m.rep === undefined ? {} : { Rep: m.rep }),
      ...(m.subs === undefined ? {} : { Subs: m.subs }),
    };
  }
  return {
    id,
    idType: 2,
    ...fields,
    ...(m.reps === undefined ? {} : { reps: m.reps }),
    ...(m.isNotSub === undefined ? {} : { isNotSub: m.isNotSub }),
  };
}

/** A document in the case's release prescribing `medicaments`. */
function documentFor(medicaments: readonly Medicament[]) {
  const fields = medicaments.map((m, i) => medicamentFields(m, MEDICAMENT_IDS[i]!));
  const doc =
    medicaments[0]?.format === 'CHMED23A'
      ? sampleChmed23Prescription({ meds: fields })
      : samplePrescription({ Medicaments: fields });
  return readPrescriptionForCreate(JSON.stringify(doc));
}

for (const format of ['CHMED16A', 'CHMED23A'] as const) {
  test(`quantities, ${format}: ${RUNS} random sequences of dispensations match the model`, () =>
    runCases(format));
}

function runCases(format: Medicament['format']): Promise<void> {
  return withService(async ({ parts, service }) => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(caseArb(format), async ({ medicaments, ops }) => {
        const created = await service.create(documentFor(medicaments), as(DOCTOR), {
          asQrCode: false,
        });
        const id = created.prescriptionId;
        const [create] = (await parts.store.readChain(id))?.state.events ?? [];
        const c: Case = {
          service,
          count: async () => ((await parts.store.readChain(id))?.state.events ?? []).length,
          link: created.link,
          id,
          medicaments,
          events: [],
          seen,
        };
        // The create event, as the model needs it: a target cancel must refuse.
        const view = (await service.verify(created.link, PHARMACIST)).answer as VerifyFull;
        const first = view.events[0]!;
        assert.equal(first.id, create!.id);
        c.events.push({
          id: first.id,
          type: first.type,
          actor: first.actor,
          actorName: first.actor_name,
          timestamp: first.timestamp,
          items: [],
          forced: false,
        });
        await check(c);
        for (const op of ops) {
          await step(c, op);
          await check(c);
        }
      }),
      { numRuns: RUNS },
    );
    // Every kind of outcome occurred: the property was not met by refusing everything.
    for (const what of [
      'accepted partial_dispense',
      'accepted full_dispense',
      'accepted cancel',
      'accepted cancel of a cancel',
      'accepted closing step',
      'refused quantity_exceeded',
      'refused substitution_not_allowed',
      'refused unknown_error',
      'refused not_owner',
      'refused not_cancellable',
      'refused unknown_medicament',
      'refused bad_request',
      'forced over already_dispensed',
      'forced over quantity_exceeded',
      'forced over substitution_not_allowed',
      'dispensed',
    ]) {
      assert.ok((seen.get(what) ?? 0) > 0, `never seen: ${what}`);
    }
  });
}
