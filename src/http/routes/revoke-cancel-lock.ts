/**
 * The other changes of an existing prescription (SPEC.md §5): `POST /ePrescription/revoke/:id`,
 * `…/cancel/:id/event/:eventId`, `…/lock/:id` and `…/unlock/:id`, each a signed event.
 */
import type { FastifyInstance } from 'fastify';
import { EventParams, EventView, IdParams, ReasonBody, ReasonQuery, ref } from '../../api/index.js';
import { ErxError } from '../../errors.js';
import type { AppDeps } from '../deps.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { callContext } from './call-context.js';
import type { Receipted } from './call-context.js';
import { REASON_RULE, acceptMissingBody } from './optional-body.js';
import type { QueryRule } from './optional-body.js';
import { BEARER_CALL, errorResponses, optionalBody } from './route-schemas.js';

const bearer = [{ bearer: [] }];
const tags = ['prescriptions'];

/** The query of a lock or unlock. */
const BAD_REASON_QUERY: readonly QueryRule[] = [REASON_RULE];

/** Registers revoke, cancel, lock and unlock; `receipted` adds the log's receipt to answers. */
export function registerRevokeCancelLockRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  receipted: Receipted,
): void {
  const service = deps.prescriptions;
  app.post<{ Params: { id: string } }>(
    '/ePrescription/revoke/:id',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: 'Revoke a prescription (its issuer only; final)',
        security: bearer,
        params: IdParams,
        response: { 200: ref(EventView), ...errorResponses([...BEARER_CALL, 404, 409]) },
      },
    },
    async (request) => receipted(await service.revoke(request.params.id, callContext(request))),
  );

  app.post<{ Params: { id: string; eventId: string } }>(
    '/ePrescription/cancel/:id/event/:eventId',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: "Cancel one's own dispense event",
        security: bearer,
        params: EventParams,
        response: { 200: ref(EventView), ...errorResponses([...BEARER_CALL, 404, 409, 423]) },
      },
    },
    async (request) =>
      receipted(
        await service.cancel(request.params.id, request.params.eventId, callContext(request)),
      ),
  );

  for (const [action, summary] of [
    ['lock', 'Lock a prescription while serving the patient (lapses after ERX_LOCK_TTL)'],
    ['unlock', 'Unlock a prescription (the locking actor or the issuer)'],
  ] as const) {
    app.post<{ Params: { id: string }; Querystring: ReasonQuery; Body: ReasonBody | undefined }>(
      `/ePrescription/${action}/:id`,
      {
        // No body is the usual call; `{"reason": …}` is the other way to give the reason.
        attachValidation: true,
        config: { signs: true },
        preValidation: refuseMalformedQuery,
        schema: {
          tags,
          summary,
          security: bearer,
          params: IdParams,
          querystring: ReasonQuery,
          ...optionalBody(ReasonBody),
          response: { 200: ref(EventView), ...errorResponses([...BEARER_CALL, 404, 409]) },
        },
      },
      async (request) => {
        acceptMissingBody(request, BAD_REASON_QUERY);
        const reason = oneReason(request.query.reason, request.body?.reason);
        return receipted(await service[action](request.params.id, reason, callContext(request)));
      },
    );
  }
}

/** The reason of a lock or unlock, given in the query or the body, not in both. */
function oneReason(query: string | undefined, body: string | undefined): string | undefined {
  if (query !== undefined && body !== undefined) {
    throw new ErxError('bad_request', 'Give the reason in the query or in the body, not both.', {
      violations: [{ path: '/reason', code: 'given_twice', message: 'is given twice', params: {} }],
    });
  }
  return query ?? body;
}
