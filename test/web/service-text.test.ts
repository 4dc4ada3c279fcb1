/**
 * Every cause code and every violation code the service can answer is worded by the page in
 * German, French and English, with the field named in words; a code the page does not know gets a
 * generic sentence in the page's language, and no path ever shows the service's English text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_CODES, NAMED_CAUSE_CODES, VIOLATION_CODES } from '../../src/errors.js';
import type { ErrorBody, Violation } from '../../web/src/api/types.js';
import { labelFor } from '../../web/src/desk/field-labels.js';
import { formatDateTime } from '../../web/src/i18n/date-format.js';
import { de } from '../../web/src/i18n/messages-de.js';
import { en } from '../../web/src/i18n/messages-en.js';
import type { MessageKey } from '../../web/src/i18n/messages-en.js';
import { fr } from '../../web/src/i18n/messages-fr.js';
import { causeText, violationText } from '../../web/src/i18n/service-text.js';

type Lang = 'de' | 'fr' | 'en';
const LANGS: readonly Lang[] = ['de', 'fr', 'en'];
const MESSAGES = { de, fr, en };

/** The text of `key` in `lang`, its `{name}` placeholders filled as the page's `t` fills them. */
function translate(
  lang: Lang,
  key: MessageKey,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return MESSAGES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** The page's words in `lang`, as components get them. */
function i18nOf(lang: Lang) {
  return {
    t: (key: MessageKey, params?: Readonly<Record<string, string | number>>) =>
      translate(lang, key, params),
    dateTime: formatDateTime,
  };
}

/** An error body of `error_code` `code` with `cause.Code` `cause` and an English message. */
function body(code: ErrorBody['error_code'], cause: string): ErrorBody {
  const trace = { Version: '00', TraceID: '0'.repeat(32), ParentID: '0'.repeat(16), Flags: '01' };
  return {
    error_code: code,
    message: 'The request does not match the schema.',
    trace,
    cause: {
      StatusCode: 400,
      Message: 'The request does not match the schema.',
      Code: cause,
      Trace: trace,
    },
  };
}

/** Values of every name a violation's wording uses. */
const PARAMS: Violation['params'] = {
  limit: 3,
  min: 4,
  max: 5,
  digits: 13,
  values: ['1', '2'],
  value: 3,
  type: ['number'],
  format: 'date',
  pattern: '^[0-9]+$',
  index: 0,
  expires_at: '2025-03-14T08:30:00Z',
  keyword: 'unevaluatedProperties',
};

/** Fails on a sentence that is empty, has a value left out, or shows the English `english`. */
function assertWorded(text: string | undefined, english: string, what: string): string {
  assert.ok(text !== undefined && text.trim() !== '', `${what}: no text`);
  assert.doesNotMatch(text, /[{}]/, `${what}: a value left out: ${text}`);
  assert.ok(!text.includes(english), `${what}: the service's English text: ${text}`);
  assert.doesNotMatch(text, /schema|\(number\)|\bTyp \(/i, `${what}: jargon: ${text}`);
  return text;
}

describe('the service’s codes in the page’s words', () => {
  test('every cause code the service answers is worded in German, French and English', () => {
    const codes = [...ERROR_CODES, ...NAMED_CAUSE_CODES];
    assert.ok(codes.length > ERROR_CODES.length);
    for (const code of codes) {
      const words = new Map<Lang, string>();
      for (const lang of LANGS) {
        const errorCode = (ERROR_CODES as readonly string[]).includes(code)
          ? (code as ErrorBody['error_code'])
          : 'bad_request';
        const text = causeText(body(errorCode, code), i18nOf(lang).t);
        words.set(lang, assertWorded(text, 'does not match the schema', `${code} (${lang})`));
      }
      // German and French are their own sentences, not the English one.
      assert.notEqual(words.get('de'), words.get('en'), code);
      assert.notEqual(words.get('fr'), words.get('en'), code);
    }
  });

  test('every violation code is worded in each language with its field named in words', () => {
    for (const code of VIOLATION_CODES) {
      for (const lang of LANGS) {
        const v: Violation = {
          path: '/Patient/Zip',
          code,
          message: 'must be English',
          params: PARAMS,
        };
        const { t } = i18nOf(lang);
        const text = assertWorded(violationText(v, i18nOf(lang)), 'must be English', code);
        if (lang !== 'en') assert.notEqual(text, violationText(v, i18nOf('en')), `${code} ${lang}`);
        assert.equal(labelFor(v.path, t), `${t('desk.patient')}, ${t('desk.zip')}`);
      }
    }
  });

  test('a type is said by the kind of value asked for, an unknown code generically', () => {
    const typed = (type: string): Violation => ({
      path: '/Medicaments/0/NbPack',
      code: 'type',
      message: 'has the wrong type (number)',
      params: { type: [type] },
    });
    const de = i18nOf('de');
    assert.equal(violationText(typed('integer'), de), 'muss eine ganze Zahl sein');
    assert.equal(violationText(typed('string'), i18nOf('fr')), 'doit être un texte');
    const unknown = {
      path: '/Medicaments/0/NbPack',
      code: 'newer_rule',
      message: 'breaks a newer rule',
      params: {},
    } as unknown as Violation;
    for (const lang of LANGS) {
      const text = assertWorded(violationText(unknown, i18nOf(lang)), 'breaks a newer rule', lang);
      assert.equal(text, translate(lang, 'violation.unknown'));
    }
  });

  test('parts of the document the form has no field for are named in words', () => {
    const { t } = i18nOf('de');
    assert.equal(labelFor('/Dt', t), 'Rezeptdatum');
    assert.equal(labelFor('/PFields/0', t), 'Technische Angaben des Rezepts');
  });
});
