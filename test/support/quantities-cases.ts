/**
 * Test support: random cases for the quantities property (SPEC.md §10): prescriptions of one to
 * three medicaments (CHMED16A: NbPack 1–3, Rep 0–2, Subs 0 or 1; CHMED23A: nbPack 1–3, reps a
 * count 0–2, a duration or both, isNotSub; each possibly absent) and sequences of partial, full,
 * forced and cancelled dispensations.
 */
import fc from 'fast-check';
import type { ItemOp, Medicament, Op, Reps } from './quantities-model.js';

/** The most steps of one case. */
const MAX_STEPS = 12;

const nbPack = fc.option(fc.integer({ min: 1, max: 3 }), { freq: 5, nil: undefined });

const chmed16Arb: fc.Arbitrary<Medicament> = fc.record({
  format: fc.constant('CHMED16A' as const),
  nbPack,
  rep: fc.option(fc.integer({ min: 0, max: 2 }), { freq: 5, nil: undefined }),
  subs: fc.option(fc.constantFrom(0 as const, 1 as const), { freq: 5, nil: undefined }),
});

const count = fc.integer({ min: 0, max: 2 });
// Durations in months and weeks, as a permanent prescription states them.
const duration = { d: fc.integer({ min: 1, max: 18 }), u: fc.constantFrom(5, 6) };
const repsArb: fc.Arbitrary<Reps> = fc.oneof(
  fc.record({ t: fc.constant(1 as const), v: count }),
  fc.record({ t: fc.constant(2 as const), ...duration }),
  fc.record({ t: fc.constant(3 as const), v: count, ...duration }),
);

const chmed23Arb: fc.Arbitrary<Medicament> = fc.record({
  format: fc.constant('CHMED23A' as const),
  nbPack,
  reps: fc.option(repsArb, { freq: 4, nil: undefined }),
  isNotSub: fc.option(fc.boolean(), { freq: 5, nil: undefined }),
});

const medicamentArbs = { CHMED16A: chmed16Arb, CHMED23A: chmed23Arb } as const;

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

/** A case of a document in `format`: the medicaments prescribed, and the steps taken. */
export function caseArb(format: Medicament['format']) {
  return fc.record({
    medicaments: fc.array(medicamentArbs[format], { minLength: 1, maxLength: 3 }),
    ops: fc.array(opArb, { minLength: 1, maxLength: MAX_STEPS }),
  });
}
