/** Turns a failed call into a sentence in the page's language (SPEC.md §8 error codes). */
import { ApiError } from '../api/http.js';
import type { I18n } from '../i18n/i18n-context.js';
import { CAUSE_KEYS, causeText } from '../i18n/service-text.js';

/**
 * The sentence for `error` in the page's language: the refusal worded by its cause code, else by
 * its error code, else a generic one with the HTTP status. Never the service's English message,
 * nor a script error's.
 */
export function errorMessage(error: unknown, t: I18n['t']): string {
  if (!(error instanceof ApiError)) return t('error.unexpected');
  if (error.code === 'network') return t('error.network');
  const worded = error.body === undefined ? undefined : causeText(error.body, t);
  if (worded !== undefined) return worded;
  const code = error.body?.error_code;
  if (code !== undefined && Object.hasOwn(CAUSE_KEYS, code)) return t(CAUSE_KEYS[code]);
  return t('error.other', { status: error.status });
}
