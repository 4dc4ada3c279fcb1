/**
 * The quantities of SPEC.md §10 as a property: random prescriptions (one to three medicaments,
 * NbPack 1–3, Rep 0–2, Subs 0 or 1, each possibly absent) take random sequences of partial, full,
 * forced and cancelled dispensations through the service itself over SQLite in memory. A model
 * written here from the specification alone, fed only the events the service accepted, predicts
 * the outcome of every call and, after every step, what verify answers: the medicament table, the
 * dispensed flag and the event that completed the prescription.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Principal } from '../auth/index.js';
import { isErxError } from '../errors.js';
import { readPrescriptionForCreate } from '../http/read-bodies.js';
import { SUBSTITUTE, samplePrescription } from '../../test/support/fixtures.js';
import {
  DOCTOR,
  OTHER_PHARMACIST,
  PHARMACIST,
  as,
  serviceOver,
  withServiceParts,
} from '../../test/support/service.js';
import type { PrescriptionService } from './prescription-service.js';
import type { DispenseItem, EventView, VerifyFull } from './types.js';

const RUNS = 500;
const MAX_STEPS = 12;

/** The medicament ids the generated documents prescribe, in document order. */
const MEDICAMENT_IDS = ['7680000000011', '7680000000028', '7680000000035'];
/** An id no generated document prescribes. */
const UNKNOWN_ID = '7680000000097';
/** SPEC.md §10: the refusals force overrides, in the order the event records them. */
const OVERRIDE_ORDER = [
  'already_dispensed',
  'quantity_exceeded',
  'substitution_not_allowed',
  'expired',
] as const;

interface Medicament {
  readonly nbPack: number | undefined;
  readonly rep: number | undefined;
  readonly subs: 0 | 1 | undefined;
}

interface ItemOp {
  /** Index into the prescription's medicaments (modulo their number); -1 names none of them. */
  readonly medicament: number;
  readonly amount: number;
  readonly substitute: boolean;
}

type Op =
  | {
      readonly kind: 'partial' | 'full';
      readonly items: readonly ItemOp[];
      readonly force: boolean;
      readonly reason: string | undefined;
      readonly byOther: boolean;
    }
  /** Cancels the event at `target` (modulo the chain's length), as its actor or as someone else. */
  | { readonly kind: 'cancel'; readonly target: number; readonly byOwner: boolean };

const medicamentArb: fc.Arbitrary<Medicament> = fc.record({
  nbPack: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 5, nil: undefined }),
  rep: fc.option(fc.integer({ min: 0, max: 2 }), { freq: 5, nil: undefined }),
  subs: fc.option(fc.constantFrom(0 as const, 1 as const), { freq: 5, nil: undefined }),
});

const itemArb: fc.Arbitrary<ItemOp> = fc.record({
  medicament: fc.oneof(
    { weight: 19, arbitrary: fc.nat(2) },
    { weight: 1, arbitrary: fc.constant(-1) },
  ),
  amount: fc.integer({ min: 1, max: 4 }),
  substitute: fc.boolean(),
});

const dispenseFields = {
  force: fc.boolean(),
  // Mostly with force; a reason without it is a 400 (docs/decisions.md).
  reason: fc.option(fc.constant('patient travelling'), { freq: 4, nil: undefined }),
  byOther: fc.boolean(),
};

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('partial' as const),
      items: fc.array(itemArb, { minLength: 1, maxLength: 3 }),
      ...dispenseFields,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('full' as const),
      items: fc.constant([]),
      ...dispenseFields,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      target: fc.nat(),
      byOwner: fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { arbitrary: fc.constant(false), weight: 1 },
      ),
    }),
  },
);

const caseArb = fc.record({
  medicaments: fc.array(medicamentArb, { minLength: 1, maxLength: 3 }),
  ops: fc.array(opArb, { minLength: 1, maxLength: MAX_STEPS }),
});

// ---- The model: SPEC.md §5 and §10 read independently of src/service ----

/** An event the service accepted, as the model keeps it. */
interface ModelEvent {
  readonly id: string;
  readonly type: string;
  readonly actor: string;
  readonly actorName: string;
  readonly timestamp: string;
  readonly items: readonly DispenseItem[];
  readonly forced: boolean;
  /** A cancel's target. */
  readonly target?: string;
}

/** SPEC.md §10: `(NbPack ?? 1) × (1 + (Rep ?? 0))` packages. */
function prescribed(m: Medicament): number {
  return (m.nbPack ?? 1) * (1 + (m.rep ?? 0));
}

interface ModelState {
  readonly dispensed: readonly number[];
  readonly allReached: boolean;
  readonly standingFull: boolean;
  readonly standingForced: boolean;
  /** The first standing dispense event after which every medicament had its quantity. */
  readonly completion: ModelEvent | undefined;
  readonly cancelled: ReadonlySet<string>;
}

/** Folds the accepted events: cancelled ones count as never made. */
function fold(medicaments: readonly Medicament[], events: readonly ModelEvent[]): ModelState {
  const cancelled = new Set(events.flatMap((e) => (e.target === undefined ? [] : [e.target])));
  const dispensed = medicaments.map(() => 0);
  const reached = (): boolean => medicaments.every((m, i) => dispensed[i]! >= prescribed(m));
  let completion: ModelEvent | undefined;
  let standingFull = false;
  let standingForced = false;
  for (const e of events) {
    if (cancelled.has(e.id)) continue;
    if (e.type === 'partial_dispense') {
      for (const item of e.items) {
        const i = MEDICAMENT_IDS.indexOf(item.id);
        dispensed[i] = dispensed[i]! + item.amount;
      }
    } else if (e.type === 'full_dispense') {
      standingFull = true;
      medicaments.forEach((m, i) => (dispensed[i] = Math.max(dispensed[i]!, prescribed(m))));
    } else {
      continue;
    }
    standingForced ||= e.forced;
    if (completion === undefined && reached()) completion = e;
  }
  return {
    dispensed,
    allReached: reached(),
    standingFull,
    standingForced,
    completion,
    cancelled,
  };
}

/** What a call must do: be accepted (with the overrides a forced one records) or be refused. */
type Expected =
  | { readonly accepted: true; readonly overrides: readonly string[] }
  | { readonly accepted: false; readonly code: string; readonly cause: string };

const refused = (code: string, cause: string): Expected => ({ accepted: false, code, cause });

/**
 * The outcome of a dispensation (docs/decisions.md, "Which refusals force overrides"): a reason
 * without force, already dispensed, an unknown item, a substitute for `Subs 1`, more packages
 * than remain; force overrides the three of those SPEC.md §10 names.
 */
function expectDispense(
  medicaments: readonly Medicament[],
  state: ModelState,
  op: Extract<Op, { kind: 'partial' | 'full' }>,
  items: readonly DispenseItem[] | undefined,
): Expected {
  if (!op.force && op.reason !== undefined) return refused('bad_request', 'bad_request');
  const overridden = new Set<string>();
  const override = (code: string, cause: string): Expected | undefined => {
    if (!op.force) return refused('forbidden', cause);
    overridden.add(code);
    return undefined;
  };
  if (state.allReached || state.standingFull) {
    const refusal = override('already_dispensed', 'unknown_error');
    if (refusal) return refusal;
  }
  if (items !== undefined) {
    const index = (item: DispenseItem): number => MEDICAMENT_IDS.indexOf(item.id);
    if (items.some((item) => index(item) < 0 || index(item) >= medicaments.length)) {
      return refused('bad_request', 'unknown_medicament');
    }
    const banned = items.some(
      (i) => i.substitute !== undefined && medicaments[index(i)]!.subs === 1,
    );
    if (banned) {
      const refusal = override('substitution_not_allowed', 'substitution_not_allowed');
      if (refusal) return refusal;
    }
    const asked = medicaments.map((_, i) =>
      items.filter((item) => index(item) === i).reduce((sum, item) => sum + item.amount, 0),
    );
    const exceeds = medicaments.some(
      (m, i) => asked[i]! > Math.max(0, prescribed(m) - state.dispensed[i]!),
    );
    if (exceeds) {
      const refusal = override('quantity_exceeded', 'quantity_exceeded');
      if (refusal) return refusal;
    }
  }
  return { accepted: true, overrides: OVERRIDE_ORDER.filter((code) => overridden.has(code)) };
}

/** The outcome of a cancel (SPEC.md §5): someone else's event 403, not cancellable 409. */
function expectCancel(state: ModelState, target: ModelEvent, caller: Principal): Expected {
  if (target.actor !== caller.sub) return refused('forbidden', 'not_owner');
  const dispense = target.type === 'partial_dispense' || target.type === 'full_dispense';
  if (!dispense || state.cancelled.has(target.id)) return refused('conflict', 'not_cancellable');
  return { accepted: true, overrides: [] };
}

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

/** How often each outcome was seen over all runs, so a test that exercised nothing fails. */
const seen = new Map<string, number>();
const tally = (what: string): void => void seen.set(what, (seen.get(what) ?? 0) + 1);

interface Case {
  readonly service: PrescriptionService;
  readonly count: () => Promise<number>;
  readonly link: string;
  readonly id: string;
  readonly medicaments: readonly Medicament[];
  readonly events: ModelEvent[];
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
    tally(`refused ${expected.cause}`);
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
    for (const code of expected.overrides) tally(`forced over ${code}`);
  }
  assert.equal(got.actor, caller.sub);
  tally(`accepted ${got.type}`);
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
      substitution_allowed: m.subs !== 1,
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
  assert.equal(answer.dispensed_by, state.completion?.actorName);
  if (dispensed) tally('dispensed');
}

/** A document prescribing `medicaments`, each field absent where the case leaves it out. */
function documentFor(medicaments: readonly Medicament[]) {
  const doc = samplePrescription({
    Medicaments: medicaments.map((m, i) => ({
      Id: MEDICAMENT_IDS[i],
      IdType: 2,
      ...(m.nbPack === undefined ? {} : { NbPack: m.nbPack }),
      ...(m.rep === undefined ? {} : { Rep: m.rep }),
      ...(m.subs === undefined ? {} : { Subs: m.subs }),
    })),
  });
  return readPrescriptionForCreate(JSON.stringify(doc));
}

test(`quantities: ${RUNS} random sequences of dispensations match the model`, () =>
  withServiceParts(async (parts) => {
    const { service } = serviceOver(parts);
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ medicaments, ops }) => {
        const created = await service.create(documentFor(medicaments), as(DOCTOR), {
          asQrCode: false,
        });
        const id = created.prescriptionId;
        const [create] = await parts.store.getEvents(id);
        const c: Case = {
          service,
          count: async () => (await parts.store.getEvents(id)).length,
          link: created.link,
          id,
          medicaments,
          events: [],
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
  }));
