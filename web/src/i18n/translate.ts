/**
 * German, French and English (Swiss practice): the language of the page, its texts, and dates
 * and numbers in the Swiss form of that language.
 */
import { de } from './messages-de.js';
import { en } from './messages-en.js';
import type { MessageKey, Messages } from './messages-en.js';
import { fr } from './messages-fr.js';

export { formatDate, formatDateTime } from './date-format.js';

export type Lang = 'de' | 'fr' | 'en';

/** The languages in the order of the switch, each named in itself. */
export const LANGUAGES: readonly { lang: Lang; name: string }[] = [
  { lang: 'de', name: 'Deutsch' },
  { lang: 'fr', name: 'Français' },
  { lang: 'en', name: 'English' },
];

const MESSAGES: Readonly<Record<Lang, Messages>> = { de, fr, en };

// Numbers in each language's Swiss form (0,5 in French).
const LOCALES: Readonly<Record<Lang, string>> = { de: 'de-CH', fr: 'fr-CH', en: 'en-GB' };

const STORAGE_KEY = 'erx.lang';

function isLang(value: unknown): value is Lang {
  return value === 'de' || value === 'fr' || value === 'en';
}

/** The saved choice, else the browser's first supported language, else German. */
export function initialLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (isLang(saved)) return saved;
  } catch {
    // Storage may be disabled; the browser's languages still apply.
  }
  for (const tag of navigator.languages) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLang(base)) return base;
  }
  return 'de';
}

/** Remembers the choice of language (not personal data, unlike the token). */
export function saveLang(lang: Lang): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Without storage the choice lasts for this page only.
  }
}

export type Params = Readonly<Record<string, string | number>>;

/** The text of `key` in `lang` with `{name}` placeholders filled in. */
export function translate(lang: Lang, key: MessageKey, params: Params = {}): string {
  return MESSAGES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** A text with plural forms: the keys `<base>.one`, `<base>.other` (and others the language has). */
export type PluralKey = MessageKey extends infer K
  ? K extends `${infer Base}.other`
    ? Base
    : never
  : never;

/**
 * The form of `base` for `count` in `lang` (Intl.PluralRules: 1 Packung, 2 Packungen; 0 et 1
 * emballage), with its placeholders filled in; a form the language's messages lack falls back to
 * `other`.
 */
export function translatePlural(
  lang: Lang,
  base: PluralKey,
  count: number,
  params: Params = {},
): string {
  const form = `${base}.${new Intl.PluralRules(LOCALES[lang]).select(count)}`;
  const key = (form in MESSAGES[lang] ? form : `${base}.other`) as MessageKey;
  return translate(lang, key, params);
}

/** The BCP 47 locale used for dates and numbers. */
export function localeOf(lang: Lang): string {
  return LOCALES[lang];
}

/** A number in the language's form (e.g. 0.5 as 0,5 in French). */
export function formatNumber(lang: Lang, value: number): string {
  return new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 3 }).format(value);
}
