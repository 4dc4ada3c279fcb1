/**
 * The prescription routes under `/ePrescription` (SPEC.md §5, seed §4.1–4.2), one file per
 * operation: create (`create-route.ts`), verify and status (`link-routes.ts`), dispense
 * (`dispense-route.ts`), revoke, cancel, lock and unlock (`revoke-cancel-lock.ts`). Each parses
 * its input, calls one service function and serialises the answer.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { receiptedBy } from './call-context.js';
import { registerCreateRoute } from './create-route.js';
import { registerDispenseRoute } from './dispense-route.js';
import { registerLinkRoutes } from './link-routes.js';
import { registerRevokeCancelLockRoutes } from './revoke-cancel-lock.js';

/** Registers create, verify, status, dispense, revoke, cancel, lock and unlock, in that order. */
export function registerPrescriptionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const receipted = receiptedBy(deps.transparency.log);
  registerCreateRoute(app, deps);
  registerLinkRoutes(app, deps);
  registerDispenseRoute(app, deps, receipted);
  registerRevokeCancelLockRoutes(app, deps, receipted);
}
