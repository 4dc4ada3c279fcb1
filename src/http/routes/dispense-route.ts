/**
 * `POST /ePrescription/dispense/:id` (seed §4.1, SPEC.md §5, §10): no body is a full
 * dispensation, items a partial one; `force=true` overrides what the prescription's rules allow.
 */
import type { FastifyInstance } from 'fastify';
import {
  DispenseBody,
  EventView,
  ForceQuery,
  IdParams,
  alreadyDispensedExample,
  readForce,
  ref,
} from '../../api/index.js';
import type { DispenseItem } from '../../service/index.js';
import type { AppDeps } from '../deps.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { callContext } from './call-context.js';
import type { Receipted } from './call-context.js';
import { REASON_RULE, acceptMissingBody } from './optional-body.js';
import type { QueryRule } from './optional-body.js';
import { BEARER_CALL, errorResponses, optionalBody } from './route-schemas.js';

/** The query of a dispense (SPEC.md §5: anything but true/false or 1/0 for force is a 400). */
const BAD_DISPENSE_QUERY: readonly QueryRule[] = [
  {
    name: 'force',
    holds: (value) =>
      value === undefined || (typeof value === 'string' && readForce(value) !== undefined),
    code: 'one_of',
    params: { values: ['true', 'false', '1', '0'] },
    message: 'must be true or false (or 1 or 0)',
    sentence: 'The query parameter force must be true or false (or 1 or 0).',
  },
  REASON_RULE,
];

/** Registers dispense; `receipted` adds the log's receipt to the answer. */
export function registerDispenseRoute(
  app: FastifyInstance,
  deps: AppDeps,
  receipted: Receipted,
): void {
  const service = deps.prescriptions;
  app.post<{
    Params: { id: string };
    Querystring: { force?: string; reason?: string };
    Body: DispenseItem[] | undefined;
  }>(
    '/ePrescription/dispense/:id',
    {
      // No body at all is a full dispensation (seed §4.1 rule 1), which the array schema refuses.
      attachValidation: true,
      config: { signs: true },
      preValidation: refuseMalformedQuery,
      schema: {
        tags: ['prescriptions'],
        summary: 'Record a full (no body), partial, substitute or forced dispensation',
        security: [{ bearer: [] }],
        params: IdParams,
        querystring: ForceQuery,
        ...optionalBody(DispenseBody),
        response: {
          200: ref(EventView),
          ...errorResponses([...BEARER_CALL, 404, 409, 423], {
            403: {
              already_dispensed: {
                summary: 'Already fully dispensed, and no force=true (seed §7)',
                value: alreadyDispensedExample,
              },
            },
          }),
        },
      },
    },
    async (request) => {
      acceptMissingBody(request, BAD_DISPENSE_QUERY);
      const { force, reason } = request.query;
      return receipted(
        await service.dispense(
          request.params.id,
          request.body,
          { force: force !== undefined && readForce(force) === true, reason },
          callContext(request),
        ),
      );
    },
  );
}
