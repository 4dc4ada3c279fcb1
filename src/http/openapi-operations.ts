/**
 * What the OpenAPI document says about each operation beyond its route's shapes, so that a client
 * generated from it (openapi-typescript, @hey-api/openapi-ts, orval) gets verb names, sends its
 * token on verify, and offers the headers of the retry contract (SPEC.md §5, §8): one row per
 * operation. A route without a row fails the document's generation (see `describeOperations`).
 */
import { WIRE } from '../api/wire.js';

/** How an operation is named and what it declares besides its route's schemas. */
export interface OperationRow {
  /** The generated function's name: a verb and what it acts on. */
  readonly operationId: string;
  /** The token is optional: without it the answer is the short one (seed §2.3). */
  readonly optionalBearer?: true;
  /** Accepts `Idempotency-Key` (SPEC.md §5). */
  readonly idempotent?: true;
  /** Headers of its success answer beyond `traceparent`. */
  readonly answerHeaders?: Readonly<Record<string, object>>;
}

/** `Erx-Receipt`: the receipt of an image answer, which has no field to carry it. */
const ERX_RECEIPT = {
  description:
    'With `output-format` `qrcode` or `svg`: the receipt (`receipt` of the `data` answer), base64.',
  schema: { type: 'string', contentEncoding: 'base64' },
} as const;

/** Every operation, by `METHOD path` as the document lists it. */
export const OPERATIONS: Readonly<Record<string, OperationRow>> = {
  'GET /healthz': { operationId: 'checkHealth' },
  'GET /readyz': { operationId: 'checkReadiness' },
  'POST /REST/v1/OAuth/token': { operationId: 'requestToken' },
  'POST /REST/v1/OAuth/GetTokenInfo': { operationId: 'introspectToken' },
  'POST /ePrescription/create': {
    operationId: 'createPrescription',
    idempotent: true,
    answerHeaders: { 'Erx-Receipt': ERX_RECEIPT },
  },
  'POST /ePrescription/verify': { operationId: 'verifyPrescription', optionalBearer: true },
  'POST /ePrescription/status': { operationId: 'readPrescriptionStatus' },
  'POST /ePrescription/dispense/{id}': { operationId: 'dispensePrescription', idempotent: true },
  'POST /ePrescription/revoke/{id}': { operationId: 'revokePrescription', idempotent: true },
  'POST /ePrescription/cancel/{id}/event/{eventId}': {
    operationId: 'cancelEvent',
    idempotent: true,
  },
  'POST /ePrescription/lock/{id}': { operationId: 'lockPrescription', idempotent: true },
  'POST /ePrescription/unlock/{id}': { operationId: 'unlockPrescription', idempotent: true },
  'GET /ePrescription/events': { operationId: 'listEvents' },
  'GET /ePrescription/events/stream': { operationId: 'streamEvents' },
  'GET /ePrescription/prescriptions': { operationId: 'listPrescriptions' },
  'GET /ePrescription/me': { operationId: 'readSignedInClient' },
  'GET /ePrescription/catalog': { operationId: 'searchCatalog' },
  'GET /ePrescription/catalog/names': { operationId: 'readCatalogNames' },
  'GET /log/checkpoint': { operationId: 'readLogCheckpoint' },
  'GET /log/key': { operationId: 'readLogKey' },
  'GET /log/tile/{level}/{index}': { operationId: 'readLogTile' },
  'GET /log/tile/entries/{index}': { operationId: 'readLogEntryBundle' },
};

/** The request headers an integrator may send, as declared parameters. */
const TRACEPARENT = {
  in: 'header',
  name: 'traceparent',
  required: false,
  description:
    'W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error ' +
    'bodies), so a call can be found in erx’s log.',
  schema: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
} as const;

const TOKEN_TYPE = {
  in: 'header',
  name: 'Token-Type',
  required: false,
  description:
    'The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or ' +
    '`Bearer oauth:`.',
  schema: { type: 'string', enum: ['HIN_ACS', 'HIN_JWT', 'OAUTH'] },
} as const;

const IDEMPOTENCY_KEY = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Names this call: a retry with the same key (and the same request) answers the first ' +
    'answer and changes nothing; keep it across the retries of one call (SPEC.md §5).',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
} as const;

/** The answer header every call carries. */
const TRACEPARENT_OUT = {
  description: 'The trace of this call (W3C Trace Context).',
  schema: { type: 'string' },
} as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The tile resources as two templated paths: `{index}` spans segments, sent as is or `%2F`. */
function tilePaths(wildcard: Json): Record<string, Json> {
  const operation = wildcard.get;
  const without = (operation.parameters ?? []).filter((p: Json) => p.in !== 'path');
  const index = {
    in: 'path',
    name: 'index',
    required: true,
    description:
      'The tile index `N` in c2sp.org/tlog-tiles form (`x001/x234/067`, three digits a ' +
      'segment), with `.p/<W>` for a partial tile; its `/` may be sent percent-encoded.',
    schema: { type: 'string', pattern: '^(x[0-9]{3}/)*[0-9]{3}(\\.p/[1-9][0-9]{0,2})?$' },
  };
  const level = {
    in: 'path',
    name: 'level',
    required: true,
    description: 'The tile’s level `L`, 0 to 63.',
    schema: { type: 'integer', minimum: 0, maximum: 63 },
  };
  return {
    '/log/tile/{level}/{index}': {
      get: {
        ...operation,
        summary: 'A tile of the Merkle tree',
        parameters: [...without, level, index],
      },
    },
    '/log/tile/entries/{index}': {
      get: { ...operation, summary: 'An entry bundle', parameters: [...without, index] },
    },
  };
}

/**
 * Names every operation, declares its headers and optional token, and writes the tile wildcard as
 * two paths; throws on an operation without a row (a new route must be named here).
 */
export function describeOperations(openapi: Json): void {
  const paths = openapi.paths ?? {};
  const wildcard = paths['/log/tile/{*}'];
  if (wildcard !== undefined) {
    delete paths['/log/tile/{*}'];
    Object.assign(paths, tilePaths(wildcard));
  }
  const schemas = (openapi.components?.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = onTheWireOnly(schema);
  for (const [path, item] of Object.entries(paths as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      const row = OPERATIONS[`${method.toUpperCase()} ${path}`];
      if (row === undefined) throw new Error(`no operation row for ${method} ${path}`);
      operation.operationId = row.operationId;
      const bearer = operation.security !== undefined || row.optionalBearer === true;
      if (row.optionalBearer) operation.security = [{ bearer: [] }, {}];
      operation.parameters = [
        ...(operation.parameters ?? []),
        TRACEPARENT,
        ...(bearer ? [TOKEN_TYPE] : []),
        ...(row.idempotent ? [IDEMPOTENCY_KEY] : []),
      ];
      for (const [status, answer] of Object.entries(
        (operation.responses ?? {}) as Record<string, Json>,
      )) {
        const own = status === '200' ? row.answerHeaders : undefined;
        answer.headers = { traceparent: TRACEPARENT_OUT, ...own, ...(answer.headers ?? {}) };
      }
      for (const parameter of operation.parameters as Json[]) {
        parameter.schema = onTheWireOnly(parameter.schema);
      }
    }
  }
}

/**
 * `schema` with every subschema that states its type on the wire ({@link WIRE}) replaced by that
 * type, its references to named shapes written as the document's.
 */
function onTheWireOnly(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(onTheWireOnly);
  if (schema === null || typeof schema !== 'object') return schema;
  if (schema[WIRE] !== undefined) {
    const { description } = schema;
    return onTheWireOnly({
      ...(description === undefined ? {} : { description }),
      ...schema[WIRE],
    });
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && !value.startsWith('#')
        ? `#/components/schemas/${value}`
        : onTheWireOnly(value);
  }
  return out;
}
