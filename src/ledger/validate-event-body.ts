/**
 * The shape of an event body (SPEC.md §7, seed §2.5): the listed fields only, with the rules
 * per type. Checked when an event is built and again when a stored one is read back.
 */
import { isSha256Hex } from './hash.js';
import { EVENT_TYPES, OVERRIDE_CODES } from './event.js';
import type { EventBody, EventType } from './event.js';
import { EVENT_KINDS } from './event-kinds.js';
import { tryParseTimestamp } from './timestamp.js';

export type BodyValidation =
  | { readonly ok: true; readonly body: EventBody }
  | { readonly ok: false; readonly problem: string };

const BODY_KEYS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'reference',
  'event_data',
  'dispenses',
  'timestamp',
  'actor',
  'actor_name',
  'parent_hash',
  'prescription_hash',
]);
const LOCK_DATA_KEYS: ReadonlySet<string> = new Set(['reason', 'expires_at']);
const UNLOCK_DATA_KEYS: ReadonlySet<string> = new Set(['reason']);
const FORCED_DATA_KEYS: ReadonlySet<string> = new Set(['force', 'overrides', 'reason']);
const OVERRIDES: ReadonlySet<string> = new Set(OVERRIDE_CODES);
const DISPENSE_KEYS: ReadonlySet<string> = new Set([
  'id',
  'amount',
  'substitute',
  'substitute_id_type',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKey(value: Json, allowed: ReadonlySet<string>): string | undefined {
  return Object.keys(value).find((key) => !allowed.has(key));
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function eventDataProblem(type: EventType, data: unknown): string | undefined {
  if (!isObject(data)) return 'event_data must be an object';
  const keys = Object.keys(data);
  const reasonOk = data.reason === undefined || typeof data.reason === 'string';
  const shape = EVENT_KINDS[type].data;
  switch (shape) {
    case 'cancel': {
      const ok = keys.length === 1 && isNonEmptyString(data.EventId);
      return ok ? undefined : `${type} event_data must be exactly {EventId}`;
    }
    case 'lock': {
      const expiresOk =
        data.expires_at === undefined ||
        (typeof data.expires_at === 'string' && tryParseTimestamp(data.expires_at) !== undefined);
      const ok = reasonOk && expiresOk && unknownKey(data, LOCK_DATA_KEYS) === undefined;
      return ok ? undefined : `${type} event_data must be {} with at most reason and expires_at`;
    }
    case 'unlock': {
      const ok = reasonOk && unknownKey(data, UNLOCK_DATA_KEYS) === undefined;
      return ok ? undefined : `${type} event_data must be {} or {reason}`;
    }
    case 'dispense': {
      const ok =
        keys.length === 0 ||
        (data.force === true &&
          isOverrideList(data.overrides) &&
          reasonOk &&
          unknownKey(data, FORCED_DATA_KEYS) === undefined);
      return ok ? undefined : `${type} event_data must be {} or {force: true, overrides, reason}`;
    }
    case 'empty':
      return keys.length === 0 ? undefined : `${type} event_data must be {}`;
    default:
      return unhandled(shape);
  }
}

function unhandled(shape: never): never {
  throw new Error(`unhandled event_data shape ${String(shape)}`);
}

/** A list of distinct override codes (SPEC.md §10 force). */
function isOverrideList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((code) => OVERRIDES.has(code as string)) &&
    new Set(value).size === value.length
  );
}

/** Seed §2.2 and SPEC.md §5: `substitute` and `substitute_id_type` (1|2|3) come together. */
function dispenseProblem(entry: unknown, index: number): string | undefined {
  const where = `dispenses[${index}]`;
  if (!isObject(entry)) return `${where} must be an object`;
  if (unknownKey(entry, DISPENSE_KEYS) !== undefined) return `${where} has an unknown field`;
  if (!isNonEmptyString(entry.id)) return `${where}.id must be a non-empty string`;
  const amount = entry.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1) {
    return `${where}.amount must be a positive integer`;
  }
  const hasSubstitute = entry.substitute !== undefined;
  const hasType = entry.substitute_id_type !== undefined;
  if (hasSubstitute !== hasType) return `${where} needs substitute and substitute_id_type together`;
  if (hasSubstitute && !isNonEmptyString(entry.substitute)) {
    return `${where}.substitute must be a non-empty string`;
  }
  if (hasType && ![1, 2, 3].includes(entry.substitute_id_type as number)) {
    return `${where}.substitute_id_type must be 1, 2 or 3`;
  }
  return undefined;
}

function dispensesProblem(type: EventType, dispenses: unknown): string | undefined {
  if (dispenses === undefined) return undefined;
  if (!EVENT_KINDS[type].items) return `${type} events carry no dispenses`;
  if (!Array.isArray(dispenses) || dispenses.length === 0) {
    return 'dispenses must be a non-empty array';
  }
  for (const [index, entry] of dispenses.entries()) {
    const problem = dispenseProblem(entry, index);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function fieldsProblem(value: Json): string | undefined {
  if (unknownKey(value, BODY_KEYS) !== undefined) return 'unknown field';
  if (typeof value.id !== 'string' || !UUID.test(value.id)) return 'id must be a lowercase UUID';
  if (!EVENT_TYPES.includes(value.type as EventType)) return 'unknown type';
  const type = value.type as EventType;
  if (!isNonEmptyString(value.reference)) return 'reference must be a non-empty string';
  if (typeof value.timestamp !== 'string' || tryParseTimestamp(value.timestamp) === undefined) {
    return 'timestamp must be UTC RFC 3339 with fractional seconds';
  }
  if (typeof value.actor !== 'string' || typeof value.actor_name !== 'string') {
    return 'actor and actor_name must be strings';
  }
  // Presence of parent_hash is the link check's business (verify-chain.ts); here only its form.
  if (value.parent_hash !== undefined && !isSha256Hex(value.parent_hash)) {
    return 'parent_hash must be 64 lowercase hex digits';
  }
  const startsChain = EVENT_KINDS[type].startsChain;
  if (startsChain !== (value.prescription_hash !== undefined)) {
    return 'prescription_hash is required on create and only there';
  }
  if (startsChain && !isSha256Hex(value.prescription_hash)) {
    return 'prescription_hash must be 64 lowercase hex digits';
  }
  return eventDataProblem(type, value.event_data) ?? dispensesProblem(type, value.dispenses);
}

/** Checks that `value` is a well-formed event body. */
export function validateEventBody(value: unknown): BodyValidation {
  if (!isObject(value)) return { ok: false, problem: 'event body must be an object' };
  const problem = fieldsProblem(value);
  return problem === undefined
    ? { ok: true, body: value as unknown as EventBody }
    : { ok: false, problem };
}
