/** The prescription service: one object over the operations, bound to its dependencies. */
import type { Principal } from '../auth/index.js';
import { cancel } from './cancel.js';
import { create } from './create.js';
import type { ServiceDeps } from './deps.js';
import { dispense } from './dispense.js';
import { LinkFactsMemo } from './link-facts.js';
import { lock, unlock } from './lock.js';
import { revoke } from './revoke.js';
import type {
  CallContext,
  CreateResult,
  DispenseItem,
  EventView,
  VerifyFull,
  VerifyShort,
} from './types.js';
import { verify } from './verify.js';

export class PrescriptionService {
  readonly #links = new LinkFactsMemo();

  constructor(readonly deps: ServiceDeps) {}

  /** Creates a prescription and its signed link; `checkLink` may refuse the link before storing. */
  create(
    body: string,
    ctx: CallContext,
    checkLink?: (link: string) => void,
  ): Promise<CreateResult> {
    return create(this.deps, body, ctx, checkLink);
  }

  /** Verifies a link; a principal gets the variant with transactions. */
  verify(body: string, principal: Principal | undefined): Promise<VerifyShort | VerifyFull> {
    return verify(this.deps, this.#links, body, principal);
  }

  /** Records a dispensation (`items` undefined: a full one). */
  dispense(
    id: string,
    items: readonly DispenseItem[] | undefined,
    force: boolean,
    ctx: CallContext,
  ): Promise<EventView> {
    return dispense(this.deps, id, items, force, ctx);
  }

  /** Revokes a prescription. */
  revoke(id: string, ctx: CallContext): Promise<EventView> {
    return revoke(this.deps, id, ctx);
  }

  /** Cancels one of the caller's dispense events. */
  cancel(id: string, eventId: string, ctx: CallContext): Promise<EventView> {
    return cancel(this.deps, id, eventId, ctx);
  }

  /** Locks a prescription. */
  lock(id: string, reason: string | undefined, ctx: CallContext): Promise<EventView> {
    return lock(this.deps, id, reason, ctx);
  }

  /** Unlocks a prescription. */
  unlock(id: string, reason: string | undefined, ctx: CallContext): Promise<EventView> {
    return unlock(this.deps, id, reason, ctx);
  }
}
