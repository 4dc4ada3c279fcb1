/**
 * GS1 identifiers of the catalogue: the mod 10 check digit (GTIN, GLN) and the 13-digit form a
 * catalogue article is kept under. Pure and free of Node and browser APIs: the desk's plausibility
 * warnings use the same check digit in the page.
 */

/** True when the last digit of `digits` is their GS1 mod 10 check digit (GLN, GTIN). */
export function gs1CheckDigitOk(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** Only decimal digits, `min` to `max` of them. */
function digitsOnly(text: string, min: number, max: number): boolean {
  if (text.length < min || text.length > max) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The 13-digit GTIN of `text` when it is one with a valid check digit: 13 digits, or 14 with a
 * leading 0 (the same number as a GTIN-14, as some article lists write it); else undefined.
 */
export function gtin13(text: string): string | undefined {
  const value = text.length === 14 && text.startsWith('0') ? text.slice(1) : text;
  return digitsOnly(value, 13, 13) && gs1CheckDigitOk(value) ? value : undefined;
}

/** True when `text` is a Pharmacode as article lists write it: 1 to 7 digits. */
export function isPharmacode(text: string): boolean {
  return digitsOnly(text, 1, 7);
}
