/** Number formatting shared by the table and the Markdown report. */

/** Whole numbers with thousands separators. */
export function int(value: number): string {
  return Math.round(value).toLocaleString('en');
}

/** Two decimals (ratios, milliseconds). */
export function fixed(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

/** A target's comparison as text, e.g. `≥ 0.6`. */
export function comparisonText(comparison: string, limit: number): string {
  const symbol = comparison === '>=' ? '≥' : comparison === '<=' ? '≤' : comparison;
  return `${symbol} ${limit}`;
}
