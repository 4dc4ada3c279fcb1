/**
 * The prescription service: one object over the operations, bound to its dependencies. Ids are
 * UUIDs compared case-insensitively (SPEC.md §10): every id a call names is read in lower case.
 */
import type { Principal } from '../auth/index.js';
import type { Prescription } from '../chmed16a/index.js';
import { cancel } from './cancel.js';
import { create } from './create.js';
import type { CreateOptions } from './create.js';
import type { ServiceDeps } from './deps.js';
import { dispense } from './dispense.js';
import type { DispenseOptions } from './dispense.js';
import { canonicalId } from './ids.js';
import { lock, unlock } from './lock.js';
import { revoke } from './revoke.js';
import { status } from './status.js';
import type { CallContext, CreateResult, DispenseItem, EventView, StatusResult } from './types.js';
import type { VerifyOutcome } from './verification-cache.js';
import { verify } from './verify.js';

export class PrescriptionService {
  constructor(readonly deps: ServiceDeps) {}

  /** Creates a prescription from a valid document, and its signed link. */
  create(doc: Prescription, ctx: CallContext, options: CreateOptions): Promise<CreateResult> {
    return create(this.deps, doc, ctx, options);
  }

  /** Verifies link `text`; a principal gets the variant with transactions. */
  verify(text: string, principal: Principal | undefined): Promise<VerifyOutcome> {
    return verify(this.deps, text, principal);
  }

  /** The status of link `text` for its holder: more for a genuine link, see `status.ts`. */
  status(text: string): Promise<StatusResult> {
    return status(this.deps, text);
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
