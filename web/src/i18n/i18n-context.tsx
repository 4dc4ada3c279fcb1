/** The current language for every component, and the switch that changes it. */
import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import type { MessageKey } from './messages-en.js';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  initialLang,
  saveLang,
  translate,
  translatePlural,
} from './translate.js';
import type { Lang, Params, PluralKey } from './translate.js';

export interface I18n {
  lang: Lang;
  setLang(lang: Lang): void;
  t(key: MessageKey, params?: Params): string;
  /** The plural form of `base` for `count` (see {@link translatePlural}). */
  plural(base: PluralKey, count: number, params?: Params): string;
  date(value: string): string;
  dateTime(value: string): string;
  number(value: number): string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

/** Provides the language to `children`; the document's `lang` and title follow it. */
export function I18nProvider(props: { children: ComponentChildren; titleKey: MessageKey }) {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const setLang = useCallback((next: Lang) => {
    saveLang(next);
    setLangState(next);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    // The title names the screen, then erx (the texts themselves do not repeat it).
    document.title = `${translate(lang, props.titleKey)} · erx`;
  }, [lang, props.titleKey]);
  const value = useMemo<I18n>(
    () => ({
      lang,
      setLang,
      t: (key, params) => translate(lang, key, params),
      plural: (base, count, params) => translatePlural(lang, base, count, params),
      date: formatDate,
      dateTime: formatDateTime,
      number: (v) => formatNumber(lang, v),
    }),
    [lang, setLang],
  );
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>;
}

/** The language and its formatters; only inside an {@link I18nProvider}. */
export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (value === undefined) throw new Error('useI18n outside I18nProvider');
  return value;
}
