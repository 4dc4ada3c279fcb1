/**
 * The structured posology of CHMED23A (IG eMediplan `chmed23a/posology.md`, property names as the
 * .NET reference implementation serialises them): a posology detail object (`po`) of type daily,
 * free text, single application, cyclic or sequence, built from timed dosages, dosages and
 * applications. Objects are open: a reader ignores fields it does not know.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { tagged } from './tagged.js';

const amount = Type.Number({ minimum: 0 });
/** 1 second, 2 minute, 3 hour, 4 day, 5 week, 6 month, 7 year. */
export const TimeUnit = Type.Integer({
  minimum: 1,
  maximum: 7,
  description: 'Time unit, 1 second … 7 year.',
});
const duration = Type.Integer({ minimum: 1 });

/** How much: a simple amount, an amount changing over a duration, or a range. */
export const Dosage = tagged(
  [
    Type.Object({ t: Type.Literal(1), a: amount }),
    Type.Object({ t: Type.Literal(2), aFrom: amount, aTo: amount, duU: TimeUnit, du: duration }),
    Type.Object({ t: Type.Literal(3), aMin: amount, aMax: amount }),
  ],
  'A dosage: 1 simple (`a`), 2 from-to (`aFrom`, `aTo` over `du` `duU`), 3 range (`aMin`..`aMax`).',
);

/** A dosage at a time of day (`hh:mm:ss`). */
const AtTime = Type.Object({ dt: Type.String(), do: Dosage });
/** A dosage in a segment of the day: 1 morning, 2 noon, 3 evening, 4 night. */
const InSegment = Type.Object({ s: Type.Integer({ minimum: 1, maximum: 4 }), do: Dosage });

const timedLeaf = [
  Type.Object({ t: Type.Literal(1), do: Dosage }),
  Type.Object({ t: Type.Literal(2), ts: Type.Array(AtTime, { minItems: 1 }) }),
  Type.Object({ t: Type.Literal(3), ss: Type.Array(InSegment, { minItems: 1 }) }),
] as const;

const TIMED =
  'A timed dosage: 1 dosage only, 2 at times (`ts`), 3 in day segments (`ss`), 4 on week days ' +
  '(`wds`), 5 on days of the month (`doms`), 6 at an interval (`miDu` `miDuU`).';

/** A timed dosage that names no further timed dosage (what week days and month days hold). */
const InnerTimedDosage = tagged([...timedLeaf], TIMED);

/** When and how much within a cycle. */
export const TimedDosage = tagged(
  [
    ...timedLeaf,
    Type.Object({
      t: Type.Literal(4),
      wds: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1 }),
      tdo: InnerTimedDosage,
    }),
    Type.Object({
      t: Type.Literal(5),
      doms: Type.Array(Type.Integer({ minimum: 1, maximum: 31 }), { minItems: 1 }),
      tdo: InnerTimedDosage,
    }),
    Type.Object({ t: Type.Literal(6), do: Dosage, miDuU: TimeUnit, miDu: duration }),
  ],
  TIMED,
);

const daily = Type.Object({
  t: Type.Literal(1),
  ds: Type.Array(amount, { minItems: 4, maxItems: 4 }),
});
const freeText = Type.Object({ t: Type.Literal(2), text: Type.String() });
const single = Type.Object({ t: Type.Literal(3), tdo: TimedDosage });
const cyclic = Type.Object({
  t: Type.Literal(4),
  cyDuU: TimeUnit,
  cyDu: duration,
  tdo: TimedDosage,
  tdpc: Type.Optional(Type.Integer({ minimum: 1 })),
});

const DETAIL =
  'A posology detail: 1 daily (`ds`: morning, noon, evening, night), 2 free text, 3 single ' +
  'application, 4 cyclic, 5 sequence of posologies and pauses.';

/** A sequence step: a posology for a while, or a pause. */
const SequenceStep = tagged(
  [
    Type.Object({
      t: Type.Literal(1),
      po: tagged([daily, freeText, single, cyclic], DETAIL),
      duU: TimeUnit,
      du: duration,
    }),
    Type.Object({ t: Type.Literal(2), duU: TimeUnit, du: duration }),
  ],
  'A step of a sequence: 1 a posology for `du` `duU`, 2 a pause.',
);

/** The posology detail object `po`. */
export const PosologyDetail = tagged(
  [
    daily,
    freeText,
    single,
    cyclic,
    Type.Object({ t: Type.Literal(5), sos: Type.Array(SequenceStep, { minItems: 1 }) }),
  ],
  DETAIL,
);
export type PosologyDetail = Static<typeof PosologyDetail>;
