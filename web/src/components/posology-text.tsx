/**
 * A CHMED23A structured posology other than daily doses, worded in the page's language: free
 * text, a single application, a cycle, a sequence of posologies and pauses, each with its timed
 * dosages (at times of day, in day segments, on week or month days, at an interval).
 */
import type { DosageView } from '../chmed/document-view.js';
import type { Daily, DoseView, PoView, Span, StepView, TimedView } from '../chmed/posology-view.js';
import type { I18n } from '../i18n/i18n-context.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { PluralKey } from '../i18n/translate.js';
import { localeOf } from '../i18n/translate.js';

const SEGMENTS = ['med.morning', 'med.noon', 'med.evening', 'med.night'] as const;

/** `3 days`, `1 week`. */
export function spanText(i18n: I18n, span: Span): string {
  return i18n.plural(`po.unit.${span.unit}` as PluralKey, span.count, {
    n: i18n.number(span.count),
  });
}

function doseText(i18n: I18n, dose: DoseView): string {
  const { t, number } = i18n;
  switch (dose.kind) {
    case 'amount':
      return number(dose.amount);
    case 'change':
      return t('po.change', {
        from: number(dose.from),
        to: number(dose.to),
        during: spanText(i18n, dose.over),
      });
    case 'range':
      return t('po.range', { min: number(dose.min), max: number(dose.max) });
    case 'unknown':
      return t('po.unknown');
  }
}

/** Week day `day` (1 Monday … 7 Sunday) in the page's language. */
function weekday(i18n: I18n, day: number): string {
  // 2024-01-01 was a Monday.
  const date = new Date(Date.UTC(2024, 0, day));
  return new Intl.DateTimeFormat(localeOf(i18n.lang), { weekday: 'long', timeZone: 'UTC' }).format(
    date,
  );
}

function timedText(i18n: I18n, timed: TimedView): string {
  const { t } = i18n;
  switch (timed.kind) {
    case 'dose':
      return doseText(i18n, timed.dose);
    case 'times':
      return timed.at
        .map((a) => t('po.at', { time: a.time.slice(0, 5), dose: doseText(i18n, a.dose) }))
        .join(', ');
    case 'segments':
      return timed.at
        .map((a) => {
          const name = SEGMENTS[a.segment - 1];
          const dose = doseText(i18n, a.dose);
          return name === undefined ? dose : `${t(name)}: ${dose}`;
        })
        .join(', ');
    case 'weekdays':
      return t('po.weekdays', {
        days: timed.days.map((d) => weekday(i18n, d)).join(', '),
        what: timedText(i18n, timed.timed),
      });
    case 'monthdays':
      return t('po.monthdays', {
        days: timed.days.join(', '),
        what: timedText(i18n, timed.timed),
      });
    case 'interval':
      return t('po.interval', {
        dose: doseText(i18n, timed.dose),
        every: spanText(i18n, timed.every),
      });
    case 'unknown':
      return t('po.unknown');
  }
}

function stepText(i18n: I18n, step: StepView): string {
  const during = spanText(i18n, step.during);
  if (step.kind === 'pause') return i18n.t('po.pause', { during });
  return i18n.t('po.during', { what: poText(i18n, step.po), during });
}

/** The posology `po` as one sentence. */
export function poText(i18n: I18n, po: PoView | Daily): string {
  const { t } = i18n;
  switch (po.kind) {
    case 'daily':
      return po.doses
        .map((dose, i) =>
          dose === undefined || dose === 0 ? '' : `${t(SEGMENTS[i]!)}: ${i18n.number(dose)}`,
        )
        .filter(Boolean)
        .join(', ');
    case 'text':
      return po.text;
    case 'single':
      return t('po.single', { what: timedText(i18n, po.timed) });
    case 'cyclic':
      // One timed dosage per cycle is what a cycle is; more are said.
      return t(po.perCycle === undefined || po.perCycle === 1 ? 'po.cyclic' : 'po.cyclicTimes', {
        every: spanText(i18n, po.every),
        what: timedText(i18n, po.timed),
        times: po.perCycle ?? '',
      });
    case 'sequence':
      return po.steps.map((s) => stepText(i18n, s)).join(t('po.then'));
    case 'unknown':
      return t('po.unknown');
  }
}

/** The worded posology of `dosage`, with "as needed" and the relation to meals. */
export function PosologyText(props: { dosage: DosageView }) {
  const i18n = useI18n();
  const d = props.dosage;
  const notes = [
    d.reserve ? i18n.t('po.reserve') : '',
    d.meal === 1 || d.meal === 2 || d.meal === 3 ? i18n.t(`po.meal.${d.meal}`) : '',
  ].filter(Boolean);
  if (d.po === undefined && notes.length === 0) return null;
  return (
    <p class="posology" data-posology={d.po?.kind ?? 'daily'}>
      {d.po && poText(i18n, d.po)}
      {notes.length > 0 && ` (${notes.join(', ')})`}
    </p>
  );
}
