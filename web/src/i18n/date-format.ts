/**
 * Dates alike in every language, as Swiss documents write them (31.12.2025, 14:05:09), in a
 * module of their own: it needs no browser, so code run in Node (tests) can use it.
 */
const DATE_LOCALE = 'de-CH';
const DATE: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date (`YYYY-MM-DD` or a date-time) as 31.12.2025 in every language; other text as it is. */
export function formatDate(value: string): string {
  if (DATE_ONLY.test(value)) {
    const [y, m, d] = value.split('-').map(Number);
    const date = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1));
    return new Intl.DateTimeFormat(DATE_LOCALE, { ...DATE, timeZone: 'UTC' }).format(date);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(DATE_LOCALE, DATE).format(date);
}

/** A date-time as 31.12.2025, 14:05:09 in every language, in the browser's time zone. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(DATE_LOCALE, { ...DATE, ...TIME }).format(date);
}
