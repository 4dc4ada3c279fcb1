/**
 * What a load generator sends, as plain data (it crosses into a worker thread), and the one
 * function that turns a plan and a sequence number into the next request.
 */
import { randomUUID } from 'node:crypto';
import { documentText } from '../data/document.js';

export type RequestPlan =
  /** The same request every time (floor-http). */
  | { readonly kind: 'constant'; readonly path: string; readonly body: string }
  /** A link from `links`, in turn; with `authorization`, the variant with transactions. */
  | {
      readonly kind: 'verify';
      readonly path: string;
      readonly links: readonly string[];
      readonly authorization?: string;
    }
  /** A partial dispense of one pack on the next prescription of `ids` (distinct until they wrap). */
  | {
      readonly kind: 'dispense';
      readonly ids: readonly string[];
      readonly medicamentId: string;
      readonly authorization: string;
    }
  /** A create (`output-format=data`) of the template document with a fresh `Id`. */
  | { readonly kind: 'create'; readonly templateText: string; readonly authorization: string };

export interface PlannedRequest {
  readonly method: 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The `sequence`-th request of `plan`. */
export function requestAt(plan: RequestPlan, sequence: number): PlannedRequest {
  switch (plan.kind) {
    case 'constant':
      return {
        method: 'POST',
        path: plan.path,
        headers: { 'content-type': 'application/json' },
        body: plan.body,
      };
    case 'verify': {
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (plan.authorization !== undefined) headers.authorization = plan.authorization;
      return {
        method: 'POST',
        path: plan.path,
        headers,
        body: plan.links[sequence % plan.links.length]!,
      };
    }
    case 'dispense':
      return {
        method: 'POST',
        path: `/ePrescription/dispense/${plan.ids[sequence % plan.ids.length]!}`,
        headers: { 'content-type': 'application/json', authorization: plan.authorization },
        body: `[{"id":"${plan.medicamentId}","amount":1}]`,
      };
    case 'create':
      return {
        method: 'POST',
        path: '/ePrescription/create?output-format=data',
        headers: { 'content-type': 'application/json', authorization: plan.authorization },
        body: documentText(plan.templateText, randomUUID()),
      };
  }
}

/** How many items a plan cycles through (0: no cycle). */
export function poolSize(plan: RequestPlan): number {
  if (plan.kind === 'verify') return plan.links.length;
  if (plan.kind === 'dispense') return plan.ids.length;
  return 0;
}
