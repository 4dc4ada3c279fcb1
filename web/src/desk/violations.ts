/**
 * The service's violations (SPEC.md §4: `{path: JSON pointer, message}`) placed next to the
 * fields: each field asks for the messages at its own pointer; the summary lists all of them.
 */
import type { Violation } from '../api/types.js';

export class Violations {
  readonly #byPath = new Map<string, string[]>();

  constructor(readonly all: readonly Violation[] = []) {
    for (const v of all) {
      const list = this.#byPath.get(v.path) ?? [];
      list.push(v.message);
      this.#byPath.set(v.path, list);
    }
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
