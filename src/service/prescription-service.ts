/**
 * The prescription service: one object over the operations, bound to its dependencies. Ids are
 * UUIDs compared case-insensitively (SPEC.md §10): every id a call names is read in lower case.
 */
import type { PrescriptionList } from '../api/prescription-list.js';
import type { Principal } from '../auth/index.js';
import type { PrescriptionDocument } from '../document/index.js';
import { cancel } from './operations/cancel.js';
import { create } from './operations/create.js';
import type { CreateOptions } from './operations/create.js';
import type { ServiceDeps } from './deps.js';
import { dispense } from './operations/dispense.js';
import type { DispenseOptions } from './operations/dispense.js';
import { canonicalId } from './ids.js';
import { listIssued } from './operations/list-issued.js';
import type { ListQuery } from './operations/list-issued.js';
import { lock, unlock } from './operations/lock.js';
import { revoke } from './operations/revoke.js';
import { status } from './operations/status.js';
import type { CallContext, CreateResult, DispenseItem, EventView, StatusResult } from './types.js';
import type { VerifyOutcome } from './verification/verification-cache.js';
import { verify } from './operations/verify.js';

export class PrescriptionService {
  constructor(readonly deps: ServiceDeps) {}

  /** Creates a prescription from a valid document, and its signed link. */
  create(
    doc: PrescriptionDocument,
    ctx: CallContext,
    options: CreateOptions,
  ): Promise<CreateResult> {
    return create(this.deps, doc, ctx, options);
  }

  /** Verifies link `text`; a principal gets the variant with transactions. */
  verify(text: string, principal: Principal | undefined): Promise<VerifyOutcome> {
    return verify(this.deps, text, principal);
  }

  /** The status of link `text` for its holder: more for a genuine link, see `operations/status.ts`. */
  status(text: string): Promise<StatusResult> {
    return status(this.deps, text);
  }

  /** One page of the prescriptions `principal` (a prescriber) issued, with their state. */
  listIssued(principal: Principal, query: ListQuery): Promise<PrescriptionList> {
    return listIssued(this.deps, principal, query);
  }

  /** Records a dispensation (`items` undefined: a full one). */
  dispense(
    id: string,
    items: readonly DispenseItem[] | undefined,
    options: DispenseOptions,
    ctx: CallContext,
  ): Promise<EventView> {
    return dispense(this.deps, canonicalId(id), items, options, ctx);
  }

  /** Revokes a prescription. */
  revoke(id: string, ctx: CallContext): Promise<EventView> {
    return revoke(this.deps, canonicalId(id), ctx);
  }

  /** Cancels one of the caller's dispense events. */
  cancel(id: string, eventId: string, ctx: CallContext): Promise<EventView> {
    return cancel(this.deps, canonicalId(id), eventId, ctx);
  }

  /** Locks a prescription. */
  lock(id: string, reason: string | undefined, ctx: CallContext): Promise<EventView> {
    return lock(this.deps, canonicalId(id), reason, ctx);
  }

  /** Unlocks a prescription. */
  unlock(id: string, reason: string | undefined, ctx: CallContext): Promise<EventView> {
    return unlock(this.deps, canonicalId(id), reason, ctx);
  }
}
