/** JSON schemas of the prescription routes: validation (no coercion) and the OpenAPI document. */
import { prescriptionSchema } from '../../chmed16a/index.js';

export const idParam = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const eventParams = {
  type: 'object',
  required: ['id', 'eventId'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 100 },
    eventId: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

export const reasonQuery = {
  type: 'object',
  properties: { reason: { type: 'string', maxLength: 500 } },
} as const;

/** `force` is `true` or `false`; anything else is a 400 (SPEC.md §5). */
export const forceQuery = {
  type: 'object',
  properties: { force: { type: 'string', enum: ['true', 'false'] } },
} as const;

export const createQuery = {
  type: 'object',
  properties: {
    'output-format': { type: 'string', enum: ['data', 'qrcode', 'svg'] },
    size: { type: 'string', pattern: '^[0-9]{1,4}$', description: 'PNG width in pixels, 64..2048' },
  },
} as const;

/** Dispense items (seed §2.2, SPEC.md §5 and §9: ≤ 50 items, amount 1..10,000). */
export const dispenseBody = {
  type: 'array',
  minItems: 1,
  maxItems: 50,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'amount'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 200 },
      amount: { type: 'integer', minimum: 1, maximum: 10_000 },
      substitute: { type: 'string', minLength: 1, maxLength: 500 },
      substitute_id_type: { type: 'integer', enum: [1, 2, 3] },
    },
    // `substitute` requires `substitute_id_type` and vice versa (SPEC.md §5), in keywords that
    // both Ajv's default draft and OpenAPI 3.1 know.
    allOf: [
      { if: { required: ['substitute'] }, then: { required: ['substitute_id_type'] } },
      { if: { required: ['substitute_id_type'] }, then: { required: ['substitute'] } },
    ],
  },
} as const;

export const createBody = {
  description:
    'The CHMED16A prescription document as JSON, or its CHMED16A0/CHMED16A1 string (raw or as a JSON string).',
  oneOf: [prescriptionSchema, { type: 'string' }],
};

export const verifyBody = {
  type: 'string',
  description:
    'The complete QR code string (the link), sent as it stands (raw, even under application/json) or as a JSON string.',
};

const partialDispensation = {
  type: 'object',
  properties: {
    amount: { type: 'number' },
    timestamp: { type: 'string' },
    dispensed_by: { type: 'string' },
    medicine_id: { type: 'string' },
    substitute: { type: 'string' },
    substitute_id_type: { type: 'integer' },
  },
} as const;

export const eventView = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    reference: { type: 'string' },
    event_data: { type: 'object', additionalProperties: true },
    dispenses: { type: 'array', items: dispenseBody.items },
    timestamp: { type: 'string' },
    actor: { type: 'string' },
    actor_name: { type: 'string' },
    cancellable: { type: 'boolean' },
    hash: { type: 'string' },
    parent_hash: { type: 'string' },
    signature: { type: 'string' },
    prescription_hash: { type: 'string' },
  },
} as const;

export const verifyResult = {
  type: 'object',
  properties: {
    prescription_id: { type: 'string' },
    issued_at: { type: 'string' },
    issued_by: { type: 'string' },
    valid: { type: 'boolean' },
    revoked: { type: 'boolean' },
    dispensed: { type: 'boolean' },
    locked: { type: 'boolean' },
    locked_at: { type: 'string' },
    partial_dispensations: { type: 'array', items: partialDispensation },
    events: { type: 'array', items: eventView },
    tampering_detection_result: {
      type: 'object',
      properties: {
        prescription_url_valid: { type: 'boolean' },
        prescription_hash_check_passed: { type: 'boolean' },
        logs_check_passed: { type: 'boolean' },
      },
    },
  },
} as const;

export const createResult = {
  type: 'object',
  properties: {
    SignedPrescriptionData: { type: 'string' },
    prescription_id: { type: 'string' },
  },
} as const;
