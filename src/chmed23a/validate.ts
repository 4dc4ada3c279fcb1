/**
 * Validation of a CHMED23A prescription against the profile of `profile.ts`, every violation
 * reported as `{path, code, message, params}` with `path` a JSON pointer (SPEC.md §4), with the
 * validator settings and named patterns of CHMED16A.
 */
import { compileDocumentSchema } from '../chmed16a/validate.js';
import type { Violation } from '../errors.js';
import { Chmed23Prescription } from './profile.js';

const validator = compileDocumentSchema<Chmed23Prescription>(Chmed23Prescription);

/** Every violation of the CHMED23A prescription profile in `doc`; empty when it is one. */
export function validateChmed23Prescription(doc: unknown): Violation[] {
  return validator.violations(doc);
}

/** True when `doc` is a CHMED23A prescription erx creates from. */
export function isChmed23Prescription(doc: unknown): doc is Chmed23Prescription {
  return validator.check(doc);
}
