/**
 * Validation of a prescription document against {@link prescriptionSchema}, reporting every
 * violation as `{path, code, message, params}` with `path` a JSON pointer (SPEC.md §4).
 */
import { Ajv } from 'ajv';
import type { FormatDefinition } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';
import { schemaViolation } from '../json/schema-violation.js';
import type { NamedPatterns } from '../json/schema-violation.js';
import { NO_CONTROL_CHARACTERS, THIRTEEN_DIGITS, ZIP_CODE, prescriptionSchema } from './schema.js';
import type { Prescription } from './types.js';

// Never coerce, strip or fill in (SPEC.md §9): what the client sent is what is judged.
const ajv = new Ajv({
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  allErrors: true,
  strict: true,
  // The conditional rules (`then: {required: ['HcOrg']}`, seed §2.1) name properties that are
  // defined one level up, which is standard JSON Schema but trips this one strict check.
  strictRequired: false,
  // Ajv's optimising pass over the generated code took 40 % of the two document schemas' compile
  // (0.9 s → 0.55 s of CPU, paid by every process that imports erx) and saves about 1 µs of a
  // ~10 µs validation: not worth its start-up cost (docs/decisions.md).
  code: { optimize: false },
});
/**
 * Longest value each schema format judges, in UTF-8 code units: a `date` is `YYYY-MM-DD`; an RFC
 * 3339 `date-time` with nanoseconds and an offset is 35 characters. ajv-formats splits a
 * `date-time` at every `t` or white space before it looks at it, so a 100,000-character value cost
 * ~10 ms of allocation; longer values are refused before the format's own check runs.
 */
export const FORMAT_MAX_LENGTH = { date: 10, 'date-time': 64 } as const;

/** ajv-formats' full check of `name`, refusing values over {@link FORMAT_MAX_LENGTH} first. */
function boundedFormat(name: keyof typeof FORMAT_MAX_LENGTH): FormatDefinition<string> {
  const full = fullFormats[name] as FormatDefinition<string>;
  const check = full.validate;
  if (typeof check !== 'function') throw new Error(`ajv-formats: ${name} is not a function`);
  const max = FORMAT_MAX_LENGTH[name];
  return {
    type: 'string',
    validate: (value: string) => value.length <= max && (check(value) as boolean),
    ...(full.compare ? { compare: full.compare } : {}),
  };
}

/** The formats of {@link prescriptionSchema}, exactly as the validator applies them. */
export const schemaFormats: Readonly<
  Record<keyof typeof FORMAT_MAX_LENGTH, FormatDefinition<string>>
> = { date: boundedFormat('date'), 'date-time': boundedFormat('date-time') };
for (const [name, format] of Object.entries(schemaFormats)) ajv.addFormat(name, format);

/** The seed §2.1 patterns, each reported with its own code (SPEC.md §4). */
const CHMED_PATTERNS: NamedPatterns = {
  [THIRTEEN_DIGITS]: {
    code: 'gln_digits',
    params: { digits: 13 },
    message: 'must be exactly 13 digits',
  },
  [ZIP_CODE]: { code: 'zip_digits', params: { min: 4, max: 5 }, message: 'must be 4 or 5 digits' },
  [NO_CONTROL_CHARACTERS]: {
    code: 'plain_text',
    params: {},
    message: 'must not hold control characters',
  },
};

/** A document schema compiled: a type guard, and every violation of a document. */
export interface DocumentValidator<T> {
  readonly check: (doc: unknown) => doc is T;
  readonly violations: (doc: unknown) => Violation[];
}

/**
 * Compiles a document schema with erx's validator settings and formats, its patterns reported
 * with their own codes (CHMED23A's profile is compiled here too).
 */
export function compileDocumentSchema<T>(schema: object): DocumentValidator<T> {
  const validate = ajv.compile<T>(schema);
  return {
    check: (doc: unknown): doc is T => validate(doc),
    violations(doc: unknown): Violation[] {
      if (validate(doc)) return [];
      const violations: Violation[] = [];
      for (const error of validate.errors ?? []) {
        const violation = schemaViolation(error, CHMED_PATTERNS);
        if (violation !== undefined) violations.push(violation);
      }
      return violations;
    },
  };
}

const validator = compileDocumentSchema<Prescription>(prescriptionSchema);

/** Every violation of the seed §2.1 rules in `doc`; empty when the document is valid. */
export function validatePrescription(doc: unknown): Violation[] {
  return validator.violations(doc);
}

/** True when `doc` has no violation. */
export function isPrescription(doc: unknown): doc is Prescription {
  return validator.check(doc);
}

/** Throws `bad_request` with every violation listed (SPEC.md §4) unless `doc` is valid. */
export function assertPrescription(doc: unknown): asserts doc is Prescription {
  const violations = validatePrescription(doc);
  if (violations.length > 0) {
    throw new ErxError('bad_request', 'The prescription document is invalid', { violations });
  }
}
