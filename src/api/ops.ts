/** The operator endpoints' answers (SPEC.md §5). */
import Type from 'typebox';
import type { Static } from 'typebox';

/** `/healthz` answers `ok`, `/readyz` `ready`. */
export const HealthStatus = Type.Object(
  { status: Type.String({ description: '`ok` (liveness) or `ready` (readiness).' }) },
  { $id: 'HealthStatus', description: 'The service is alive, or ready.' },
);
export type HealthStatus = Static<typeof HealthStatus>;
