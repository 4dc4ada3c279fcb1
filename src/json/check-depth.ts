/**
 * Depth check for values that are already parsed (e.g. a request body parsed by Fastify), so a
 * recursive walk that follows (canonicalisation, hashing) can never overflow the stack.
 */
import { JsonError, MAX_JSON_DEPTH } from './parse-safe.js';

/**
 * Throws `too_deep` ({@link JsonError}) when `value` nests objects/arrays deeper than `maxDepth`.
 * Uses an explicit stack; a cyclic value is refused as too deep rather than looping.
 */
export function checkDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined || top.value === null || typeof top.value !== 'object') continue;
    const depth = top.depth + 1;
    if (depth > maxDepth) throw new JsonError('too_deep');
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth });
    }
  }
}
