/**
 * A lock's end as the counter says it: the time alone today ("bis 14:05"), else date and time
 * written like every other date on the page (31.12.2025, 14:05), alike in every language.
 */
import { formatDate } from '../i18n/date-format.js';

/** Hours and minutes, 24-hour, in the browser's time zone (seconds say nothing about a lock). */
const TIME = new Intl.DateTimeFormat('de-CH', { hour: '2-digit', minute: '2-digit' });

/**
 * `value` (an ISO time); `now` decides whether it is today. `_lang` is kept for the callers: the
 * form is the same in every language.
 */
export function formatUntil(_lang: string, value: string, now = new Date()): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const time = TIME.format(at);
  return at.toDateString() === now.toDateString() ? time : `${formatDate(value)}, ${time}`;
}
