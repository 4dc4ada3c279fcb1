/**
 * The named shapes as shared schemas: what the HTTP application registers (`addSchema`) and the
 * OpenAPI document lists in `components.schemas`. In each, a nested named shape becomes a `$ref`
 * to its `$id`, so every shape is written once and a generated client gets one type per shape.
 */
import { ErrorBody, ErrorCause, ErrorCode, TokenErrorBody, Trace, Violation } from './errors.js';
import { DispenseBody, DispenseItem } from './dispense.js';
import { ReasonBody } from './params.js';
import { EVENT_DATA, EventType, EventView, PartialDispensation } from './events.js';
import { EventStream, EventStreamMessage, FeedItem, FeedPage } from './feed.js';
import {
  VerifyBody,
  MedicamentStatus,
  TamperingDetectionResult,
  VerifyFull,
  VerifyResult,
  VerifyShort,
} from './verify.js';
import { PackagesLeft, PrescriptionStatus, StatusResult } from './status.js';
import {
  Chmed23aPrescription,
  CreateBody,
  CreateResult,
  HcOrg,
  HcPerson,
  Medicament,
  Patient,
  Pos,
  Prescription,
  QrCodePng,
  QrCodeSvg,
  TransmissionString,
} from './create.js';
import {
  ActiveTokenInfo,
  InactiveTokenInfo,
  TokenForm,
  TokenInfo,
  TokenInfoForm,
  TokenResult,
} from './tokens.js';
import { HealthStatus } from './ops.js';
import { ListedPrescription, PrescriptionList } from './prescription-list.js';
import { CatalogArticle, CatalogArticles } from './catalog.js';
import { PracticeAddress, PrescriberProfile, SignedInClient } from './me.js';
import { LogCheckpointNote, LogTile, LogVerifierKey } from './log.js';

/** Every named shape of the interface. */
export const NAMED_SCHEMAS: readonly object[] = [
  Trace,
  ErrorCode,
  Violation,
  ErrorCause,
  ErrorBody,
  TokenErrorBody,
  DispenseItem,
  DispenseBody,
  ReasonBody,
  EventType,
  ...Object.values(EVENT_DATA),
  EventView,
  PartialDispensation,
  FeedItem,
  FeedPage,
  EventStream,
  EventStreamMessage,
  TamperingDetectionResult,
  MedicamentStatus,
  VerifyBody,
  VerifyShort,
  VerifyFull,
  VerifyResult,
  PackagesLeft,
  PrescriptionStatus,
  StatusResult,
  Patient,
  HcPerson,
  HcOrg,
  Pos,
  Medicament,
  Prescription,
  Chmed23aPrescription,
  TransmissionString,
  CreateBody,
  CreateResult,
  QrCodePng,
  QrCodeSvg,
  TokenForm,
  TokenInfoForm,
  TokenResult,
  ActiveTokenInfo,
  InactiveTokenInfo,
  TokenInfo,
  HealthStatus,
  ListedPrescription,
  PrescriptionList,
  CatalogArticle,
  CatalogArticles,
  PracticeAddress,
  PrescriberProfile,
  SignedInClient,
  LogCheckpointNote,
  LogVerifierKey,
  LogTile,
];

/** The `$id` of a named shape; a schema without one is a programming error. */
export function schemaId(schema: object): string {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string' || id === '') throw new Error('not a named schema (no $id)');
  return id;
}

/** A reference to a named shape, for a route's body or response. */
export function ref(schema: object): { $ref: string } {
  return { $ref: schemaId(schema) };
}

function withRefs(value: unknown, root: boolean, refs: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withRefs(item, false, refs));
  if (value === null || typeof value !== 'object') return value;
  const id = (value as { $id?: unknown }).$id;
  if (!root && typeof id === 'string') {
    refs.add(id);
    return { $ref: id };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = withRefs(item, false, refs);
  return out;
}

/**
 * Plain JSON copies of {@link NAMED_SCHEMAS}, each nested named shape replaced by a `$ref`.
 * Throws when two shapes share an `$id` or a shape nests one that is not listed.
 */
export function sharedSchemas(): Record<string, unknown>[] {
  const ids = new Set<string>();
  const refs = new Set<string>();
  const out = NAMED_SCHEMAS.map((schema) => {
    const id = schemaId(schema);
    if (ids.has(id)) throw new Error(`two named schemas are called ${id}`);
    ids.add(id);
    return withRefs(schema, true, refs) as Record<string, unknown>;
  });
  const unlisted = [...refs].filter((id) => !ids.has(id));
  if (unlisted.length > 0) throw new Error(`named schemas not listed: ${unlisted.join(', ')}`);
  return out;
}
