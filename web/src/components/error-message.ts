/** Turns a failed call into a sentence in the page's language (SPEC.md §8 error codes). */
import { ApiError } from '../api/http.js';
import type { I18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { causeText } from '../i18n/service-text.js';

const BY_CODE: Readonly<Record<string, MessageKey>> = {
  network: 'error.network',
  unauthorized: 'error.unauthorized',
  forbidden: 'error.forbidden',
  not_found: 'error.not_found',
  conflict: 'error.conflict',
  locked: 'error.locked',
  bad_request: 'error.bad_request',
  too_many_requests: 'error.too_many_requests',
  service_unavailable: 'error.service_unavailable',
};

/**
 * The sentence for `error`: the refusal worded by its cause code where the page knows it, else the
 * error code's sentence with the service's own (English) message, which names details.
 */
export function errorMessage(error: unknown, t: I18n['t']): string {
  if (error instanceof ApiError) {
    const worded = error.body === undefined ? undefined : causeText(error.body, t);
    if (worded !== undefined) return worded;
    const key = BY_CODE[error.code] ?? 'error.other';
    return t(key, { message: error.body?.message ?? String(error.status) });
  }
  return t('error.other', { message: error instanceof Error ? error.message : String(error) });
}
