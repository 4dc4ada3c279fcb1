/** A lock's end as the counter says it: the time alone today ("bis 14:05"), else date and time. */
import type { Lang } from '../i18n/translate.js';

const LOCALES: Readonly<Record<Lang, string>> = { de: 'de-CH', fr: 'fr-CH', en: 'en-GB' };

/** `value` (an ISO time) for `lang`; `now` decides whether it is today. */
export function formatUntil(lang: Lang, value: string, now = new Date()): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const today = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(LOCALES[lang], {
    ...(today ? {} : { dateStyle: 'medium' }),
    timeStyle: 'short',
  }).format(at);
}
