/**
 * The service's violations (SPEC.md §4: `{path: JSON pointer, code, message, params}`) placed
 * next to the fields, in the page's language: each field asks for the messages at its own pointer; the summary lists all of them.
 */
import type { Violation } from '../api/types.js';

export class Violations {
  readonly #byPath = new Map<string, string[]>();

  /** `word` says a violation in the page's language; without it, the service's message. */
  constructor(
    readonly all: readonly Violation[] = [],
    readonly word: (v: Violation) => string = (v) => v.message,
  ) {
    for (const v of all) {
      const list = this.#byPath.get(v.path) ?? [];
      list.push(word(v));
      this.#byPath.set(v.path, list);
    }
  }

  /** The same violations, said by `word`. */
  worded(word: (v: Violation) => string): Violations {
    return new Violations(this.all, word);
  }

  /** Messages for exactly `pointer`. */
  at(pointer: string): readonly string[] {
    return this.#byPath.get(pointer) ?? [];
  }

  get empty(): boolean {
    return this.all.length === 0;
  }
}

/** The DOM id of the control for `pointer` (`/Patient/Zip` → `f-Patient-Zip`). */
export function controlId(pointer: string): string {
  return `f${pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;
}
