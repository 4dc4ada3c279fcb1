/**
 * Long repeated strings, built once. The generators offer many long strings per request and pick
 * one; building them all anew for every request made garbage collection the largest cost of a run.
 */
const cache = new Map<string, string>();

/** `unit` repeated `times` times (cached). */
export function rep(unit: string, times: number): string {
  const key = `${times}:${unit}`;
  let value = cache.get(key);
  if (value === undefined) {
    value = unit.repeat(times);
    cache.set(key, value);
  }
  return value;
}
