/**
 * fast-check arbitraries of VALID CHMED16A prescription documents (seed §2.1): every optional
 * field sometimes present, unicode text (lone surrogates included), boundary values, and unknown
 * fields in the nested objects, which SPEC.md §4 keeps open.
 */
import fc from 'fast-check';
import type {
  HcOrg,
  HcPerson,
  Medicament,
  Patient,
  Pos,
  Prescription,
} from '../../src/chmed16a/index.js';

const RECORD = { noNullPrototype: true } as const;

/** One UTF-16 string unit or code point: any scalar value, now and then a lone surrogate. */
const textUnit = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 8 },
  {
    arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    weight: 1,
  },
);

/** Any text, ASCII-biased so that documents also look realistic. */
export const textArbitrary = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: textUnit, maxLength }),
  );

/** `text` without C0, DEL or C1 control characters. */
const withoutControls = (text: string): string =>
  [...text]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code > 0x1f && (code < 0x7f || code > 0x9f);
    })
    .join('');

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

const zip = digits(4, 5);
const gln = digits(13, 13);
const zsr = fc.string({ unit: textUnit, maxLength: 7 });

/** A calendar day between 1900 and 2100 as `YYYY-MM-DD`. */
const day = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2100-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

/** An RFC 3339 date-time with `Z` or an offset, with or without fractional seconds. */
const dateTime = fc
  .tuple(
    fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2100-12-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    fc.constantFrom('Z', '+00:00', '+01:00', '+02:00', '-05:30', '+14:00'),
    fc.boolean(),
  )
  .map(([d, zone, millis]) => {
    const iso = d.toISOString();
    return (millis ? iso.slice(0, 23) : iso.slice(0, 19)) + zone;
  });

/** A finite number as JSON carries it (no -0, which JSON writes as 0). */
const dose = fc
  .oneof(fc.integer({ min: 0, max: 10 }), fc.double({ noNaN: true, noDefaultInfinity: true }))
  .map((n) => (Object.is(n, -0) ? 0 : n));

/** Unknown fields for an open nested object: never a listed field nor a forbidden key. */
function extraFields(listed: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const key = fc
    .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 })
    .filter((k) => !listed.includes(k) && k !== '__proto__' && k !== 'constructor');
  const value = fc.oneof(
    textArbitrary(12),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 3 }),
  );
  return fc.dictionary(key, value, { maxKeys: 3, noNullPrototype: true });
}

/** Listed fields win over generated extras (the filter already keeps them apart). */
function open<T extends object>(
  known: fc.Arbitrary<T>,
  listed: readonly string[],
): fc.Arbitrary<T> {
  return fc
    .tuple(known, fc.option(extraFields(listed), { nil: undefined }))
    .map(([k, extra]) => (extra === undefined ? k : { ...extra, ...k }));
}

const patientArbitrary: fc.Arbitrary<Patient> = open(
  fc.record(
    {
      FName: textArbitrary(),
      LName: textArbitrary(),
      BDt: fc.oneof(day, textArbitrary(12)),
      Gender: fc.constantFrom(1 as const, 2 as const),
      Street: textArbitrary(),
      Zip: zip,
      Ids: fc.array(
        fc.record({ Type: fc.integer({ min: 1, max: 3 }), Val: digits(1, 20) }, RECORD),
        {
          maxLength: 2,
        },
      ),
    },
    { requiredKeys: ['FName', 'LName', 'BDt'], ...RECORD },
  ),
  ['FName', 'LName', 'BDt', 'Gender', 'Street', 'Zip', 'Ids'],
);

const hcPersonArbitrary: fc.Arbitrary<HcPerson> = open(
  fc.record(
    { Gln: gln, FName: textArbitrary(), LName: textArbitrary(), Zsr: zsr },
    { requiredKeys: ['Gln', 'FName', 'LName'], ...RECORD },
  ),
  ['Gln', 'FName', 'LName', 'Zsr'],
);

const hcOrgArbitrary: fc.Arbitrary<HcOrg> = open(
  fc.record(
    {
      Name: textArbitrary(),
      NameAffix: textArbitrary(),
      Street: textArbitrary(),
      Zip: zip,
      City: textArbitrary(),
      Country: textArbitrary(2),
      Zsr: zsr,
      Phone: textArbitrary(16),
      Email: textArbitrary(24),
    },
    { requiredKeys: ['Name', 'Street', 'Zip', 'City'], ...RECORD },
  ),
  ['Name', 'NameAffix', 'Street', 'Zip', 'City', 'Country', 'Zsr', 'Phone', 'Email'],
);

const posArbitrary: fc.Arbitrary<Pos> = open(
  fc.record(
    { D: fc.array(dose, { minLength: 1, maxLength: 4 }), DtTo: day },
    { requiredKeys: ['D'], ...RECORD },
  ),
  ['D', 'DtTo'],
);

const MEDICAMENT_FIELDS = ['Id', 'IdType', 'Pos', 'Unit', 'AppInstr', 'Rep', 'NbPack', 'Subs'];

const medicamentArbitrary: fc.Arbitrary<Medicament> = open(
  fc
    .record(
      {
        // No control character: the schema refuses one in a medicament `Id` (issue 39).
        Id: fc.oneof(digits(6, 13), textArbitrary(20).map(withoutControls)),
        IdType: fc.constantFrom(1 as const, 2 as const, 3 as const),
        Pos: fc.array(posArbitrary, { minLength: 1, maxLength: 3 }),
        Unit: textArbitrary(12),
        AppInstr: textArbitrary(),
        Rep: fc.integer({ min: 0, max: 24 }),
        NbPack: fc.integer(),
        Subs: fc.constantFrom(0 as const, 1 as const),
      },
      { requiredKeys: ['Id', 'IdType'], ...RECORD },
    )
    // Seed §2.1: Unit is required as soon as Pos has an item.
    .chain((m) =>
      m.Pos !== undefined && m.Unit === undefined
        ? textArbitrary(12).map((Unit): Medicament => ({ ...m, Unit }))
        : fc.constant<Medicament>(m),
    ),
  MEDICAMENT_FIELDS,
);

/** Valid prescription documents; `rev` 2 and 3 always come with an `HcOrg` (seed §2.1). */
export function prescriptionArbitrary(): fc.Arbitrary<Prescription> {
  return fc
    .record(
      {
        rev: fc.oneof(fc.constantFrom(1, 2, 3), fc.integer()),
        Patient: patientArbitrary,
        HcPerson: hcPersonArbitrary,
        HcOrg: hcOrgArbitrary,
        Medicaments: fc.array(medicamentArbitrary, { minLength: 1, maxLength: 4 }),
        MedType: fc.constant(3 as const),
        Id: fc.oneof(fc.uuid(), textArbitrary(36)),
        Auth: gln,
        Zsr: textArbitrary(12),
        Dt: dateTime,
        Rmk: textArbitrary(80),
        PFields: fc.array(fc.record({ Nm: textArbitrary(8), Val: textArbitrary(8) }, RECORD), {
          maxLength: 2,
        }),
        PSchema: textArbitrary(12),
      },
      { requiredKeys: ['Patient', 'Medicaments', 'MedType', 'Id', 'Auth', 'Dt'], ...RECORD },
    )
    .chain((doc) =>
      (doc.rev === 2 || doc.rev === 3) && doc.HcOrg === undefined
        ? hcOrgArbitrary.map((HcOrg): Prescription => ({ ...doc, HcOrg }))
        : fc.constant<Prescription>(doc),
    );
}
