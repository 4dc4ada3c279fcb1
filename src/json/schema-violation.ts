/**
 * A JSON Schema error (Ajv's, as Fastify reports them too) as a violation: its pointer, a code a
 * client can word in its own language, the values that wording needs, and an English sentence.
 */
import type { ErrorObject } from 'ajv';
import type { Violation, ViolationCode, ViolationParams } from '../errors.js';

/** A pattern with a meaning of its own: the code, values and sentence a value breaking it gets. */
export interface NamedPattern {
  readonly code: ViolationCode;
  readonly params: ViolationParams;
  readonly message: string;
}

/** Named patterns by their source text. */
export type NamedPatterns = Readonly<Record<string, NamedPattern>>;

/** Escapes one reference token of a JSON pointer (RFC 6901 §3). */
function pointerToken(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

// Keywords whose only value is `limit`, by the code they are reported with.
const LIMITS: Readonly<Record<string, ViolationCode>> = {
  minLength: 'min_length',
  maxLength: 'max_length',
  minItems: 'min_items',
  maxItems: 'max_items',
  minimum: 'minimum',
  maximum: 'maximum',
};

function listOf(value: unknown): (string | number)[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map((v: unknown) => (typeof v === 'number' ? v : String(v)));
}

/**
 * The violation of one schema error; `undefined` for the summary errors of `if`/`then`, which
 * the error of the `then` branch itself already reports.
 */
export function schemaViolation(
  error: ErrorObject,
  patterns: NamedPatterns = {},
): Violation | undefined {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const fallback = error.message ?? 'is invalid';
  const limit = LIMITS[error.keyword];
  if (limit !== undefined) {
    return { path: at, code: limit, message: fallback, params: { limit: Number(params['limit']) } };
  }
  switch (error.keyword) {
    case 'if':
      return undefined;
    case 'required':
      return {
        path: `${at}/${pointerToken(String(params['missingProperty']))}`,
        code: 'required',
        message: 'is required',
        params: {},
      };
    case 'additionalProperties':
      return {
        path: `${at}/${pointerToken(String(params['additionalProperty']))}`,
        code: 'not_allowed',
        message: 'is not an allowed property',
        params: {},
      };
    case 'const':
      return {
        path: at,
        code: 'const',
        message: `must be ${JSON.stringify(params['allowedValue'])}`,
        params: { value: listOf(params['allowedValue'])[0] ?? '' },
      };
    case 'enum': {
      const values = listOf(params['allowedValues']);
      return {
        path: at,
        code: 'one_of',
        message: `must be one of ${values.join(', ')}`,
        params: { values },
      };
    }
    case 'pattern': {
      const pattern = String(params['pattern']);
      const named = patterns[pattern];
      if (named)
        return { path: at, code: named.code, message: named.message, params: named.params };
      return { path: at, code: 'pattern', message: fallback, params: { pattern } };
    }
    case 'type':
      return {
        path: at,
        code: 'type',
        message: fallback,
        params: { type: listOf(params['type']) },
      };
    case 'format':
      return {
        path: at,
        code: 'format',
        message: fallback,
        params: { format: String(params['format']) },
      };
    default:
      return { path: at, code: 'invalid', message: fallback, params: { keyword: error.keyword } };
  }
}
