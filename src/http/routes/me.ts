/**
 * `GET /ePrescription/me`: the signed-in client, for a page to show who is signed in and the desk
 * to prefill the prescriber's fields from the profile.
 */
import type { FastifyInstance } from 'fastify';
import { ref } from '../../api/index.js';
import { SignedInClient } from '../../api/me.js';
import { whoAmI } from '../../auth/who-am-i.js';
import type { AppDeps } from '../deps.js';
import { requirePrincipal } from '../auth-hook.js';
import { ANY_CALL, errorResponses } from './route-schemas.js';

/** Registers the signed-in client's answer. */
export function registerMeRoute(app: FastifyInstance, deps: AppDeps): void {
  const tokens = deps.tokens;
  const readProfile = tokens && ((clientId: string) => tokens.clientProfile(clientId));
  app.get(
    '/ePrescription/me',
    {
      schema: {
        tags: ['clients'],
        summary: 'The signed-in client: role, actor id, name and a prescriber’s profile',
        description:
          'Who the bearer token stands for, as the token service told erx. `profile` is the ' +
          'prescriber profile the operator set (`erx clients profile`), present only for a ' +
          'prescriber that has one with the embedded token service; the desk prefills the ' +
          'document’s `HcPerson`, `HcOrg` and `Auth` from it. `document_format` is the release ' +
          'the desk composes in. Any signed-in client.',
        security: [{ bearer: [] }],
        response: { 200: ref(SignedInClient), ...errorResponses([401, ...ANY_CALL]) },
      },
    },
    async (request) => ({
      ...(await whoAmI(requirePrincipal(request), readProfile)),
      document_format: deps.config.documentFormat,
    }),
  );
}
