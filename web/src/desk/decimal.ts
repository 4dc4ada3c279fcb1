/** Numbers as people at a Swiss desk type them: a decimal comma or a decimal point. */

/** A dose as typed, with a decimal comma or point (`0,5`, `0.5`, `,5`), or undefined. */
export function parseDecimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(?:\d+(?:[.,]\d*)?|[.,]\d+)$/.test(trimmed)) return undefined;
  return Number(trimmed.replace(',', '.'));
}
