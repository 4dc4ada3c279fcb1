/**
 * Freezing a JSON-like value all the way down, for values remembered and shared by every later
 * caller (parsed event bodies, verify answers): nobody can change what the next caller sees.
 */

/** Freezes `value` and everything it holds; already frozen parts are left as they are. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
