/**
 * `GET /ePrescription/prescriptions`: the prescriber's list of what it issued (one page), parsed
 * from the query and answered by the service's `listIssued`.
 */
import type { FastifyInstance } from 'fastify';
import { PrescriptionList, PrescriptionListQuery, ref } from '../../api/index.js';
import type { AppDeps } from '../deps.js';
import { requirePrincipal } from '../auth-hook.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { BEARER_CALL, errorResponses } from './route-schemas.js';

/** Registers the prescriber's list. */
export function registerPrescriptionListRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: PrescriptionListQuery }>(
    '/ePrescription/prescriptions',
    {
      preValidation: refuseMalformedQuery,
      schema: {
        tags: ['prescriptions'],
        summary: 'The prescriptions the calling prescriber issued, with their state (one page)',
        description:
          'In id order; pass `next` as `after` for the next page. Each prescription shows the ' +
          'flags and medicaments of verify’s variant with transactions, checked from the store ' +
          'alone (the link is not kept): `valid` is the chain and the signed terms; a chain that ' +
          'fails is listed with `valid` false, never refusing the page. Prescribers only.',
        security: [{ bearer: [] }],
        querystring: PrescriptionListQuery,
        response: { 200: ref(PrescriptionList), ...errorResponses(BEARER_CALL) },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const { after, limit, state } = request.query;
      return deps.prescriptions.listIssued(principal, {
        after,
        limit: limit === undefined ? undefined : Number(limit),
        state,
      });
    },
  );
}
