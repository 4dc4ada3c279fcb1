/**
 * The structured posology of CHMED23A (`po`, IG eMediplan `chmed23a/posology.md`) read for
 * display: daily doses go into the dosage table, every other kind into a tree the page words in
 * the reader's language. Read defensively, as the rest of the document: what is not understood is
 * `unknown`, never rendered as an object.
 */

import type { Fields } from './fields.js';
import { list, number as num } from './fields.js';

/** How much: an amount, an amount changing over a duration, or a range. */
export type DoseView =
  | { readonly kind: 'amount'; readonly amount: number }
  | { readonly kind: 'change'; readonly from: number; readonly to: number; readonly over: Span }
  | { readonly kind: 'range'; readonly min: number; readonly max: number }
  | { readonly kind: 'unknown' };

/** A duration: `count` of time unit `unit` (1 second … 7 year). */
export interface Span {
  readonly count: number;
  readonly unit: number;
}

/** When and how much within a cycle. */
export type TimedView =
  | { readonly kind: 'dose'; readonly dose: DoseView }
  | { readonly kind: 'times'; readonly at: readonly { time: string; dose: DoseView }[] }
  /** Day segments 1 morning … 4 night. */
  | { readonly kind: 'segments'; readonly at: readonly { segment: number; dose: DoseView }[] }
  /** Week days 1 Monday … 7 Sunday. */
  | { readonly kind: 'weekdays'; readonly days: readonly number[]; readonly timed: TimedView }
  | { readonly kind: 'monthdays'; readonly days: readonly number[]; readonly timed: TimedView }
  | { readonly kind: 'interval'; readonly dose: DoseView; readonly every: Span }
  | { readonly kind: 'unknown' };

/** A posology other than daily doses. */
export type PoView =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'single'; readonly timed: TimedView }
  | {
      readonly kind: 'cyclic';
      readonly every: Span;
      readonly timed: TimedView;
      readonly perCycle: number | undefined;
    }
  | { readonly kind: 'sequence'; readonly steps: readonly StepView[] }
  | { readonly kind: 'unknown' };

/** A step of a sequence: a posology for a while, or a pause. */
export type StepView =
  | { readonly kind: 'take'; readonly po: PoView | Daily; readonly during: Span }
  | { readonly kind: 'pause'; readonly during: Span };

/** Daily doses: morning, noon, evening, night. */
export interface Daily {
  readonly kind: 'daily';
  readonly doses: readonly (number | undefined)[];
}

function record(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.map(num).filter((n): n is number => n !== undefined) : [];
}

function span(count: unknown, unit: unknown): Span | undefined {
  const c = num(count);
  const u = num(unit);
  return c !== undefined && u !== undefined && u >= 1 && u <= 7 ? { count: c, unit: u } : undefined;
}

function dose(value: unknown): DoseView {
  const d = record(value);
  const a = num(d.a);
  if (d.t === 1 && a !== undefined) return { kind: 'amount', amount: a };
  const from = num(d.aFrom);
  const to = num(d.aTo);
  const over = span(d.du, d.duU);
  if (d.t === 2 && from !== undefined && to !== undefined && over) {
    return { kind: 'change', from, to, over };
  }
  const min = num(d.aMin);
  const max = num(d.aMax);
  if (d.t === 3 && min !== undefined && max !== undefined) return { kind: 'range', min, max };
  return { kind: 'unknown' };
}

function timed(value: unknown, depth = 0): TimedView {
  const d = record(value);
  switch (d.t) {
    case 1:
      return { kind: 'dose', dose: dose(d.do) };
    case 2:
      return {
        kind: 'times',
        at: list(d.ts).map((x) => ({
          time: typeof record(x).dt === 'string' ? (record(x).dt as string) : '',
          dose: dose(record(x).do),
        })),
      };
    case 3:
      return {
        kind: 'segments',
        at: list(d.ss).map((x) => ({ segment: num(record(x).s) ?? 0, dose: dose(record(x).do) })),
      };
    case 4:
    case 5:
      // Week and month days hold a timed dosage of their own, one level deep (IG eMediplan).
      if (depth > 0) return { kind: 'unknown' };
      return {
        kind: d.t === 4 ? 'weekdays' : 'monthdays',
        days: numbers(d.t === 4 ? d.wds : d.doms),
        timed: timed(d.tdo, depth + 1),
      };
    case 6: {
      const every = span(d.miDu, d.miDuU);
      return every ? { kind: 'interval', dose: dose(d.do), every } : { kind: 'unknown' };
    }
    default:
      return { kind: 'unknown' };
  }
}

/** Daily doses of a `po` of type 1, or undefined for any other. */
export function dailyDoses(value: unknown): Daily | undefined {
  const d = record(value);
  if (d.t !== 1 || !Array.isArray(d.ds)) return undefined;
  return { kind: 'daily', doses: d.ds.slice(0, 4).map(num) };
}

function detail(value: unknown, depth: number): PoView | Daily {
  const d = record(value);
  const daily = dailyDoses(d);
  if (daily) return daily;
  switch (d.t) {
    case 2:
      return typeof d.text === 'string' ? { kind: 'text', text: d.text } : { kind: 'unknown' };
    case 3:
      return { kind: 'single', timed: timed(d.tdo) };
    case 4: {
      const every = span(d.cyDu, d.cyDuU);
      if (!every) return { kind: 'unknown' };
      return { kind: 'cyclic', every, timed: timed(d.tdo), perCycle: num(d.tdpc) };
    }
    case 5:
      // A sequence's steps hold no further sequence (IG eMediplan).
      if (depth > 0) return { kind: 'unknown' };
      return { kind: 'sequence', steps: list(d.sos).map((s) => step(s)) };
    default:
      return { kind: 'unknown' };
  }
}

function step(value: unknown): StepView {
  const s = record(value);
  const during = span(s.du, s.duU) ?? { count: 0, unit: 4 };
  if (s.t === 1) return { kind: 'take', po: detail(s.po, 1), during };
  return { kind: 'pause', during };
}

/** The posology `po` of a CHMED23A `pos` entry: daily doses, or a tree to word. */
export function posologyView(value: unknown): PoView | Daily {
  return detail(value, 0);
}
