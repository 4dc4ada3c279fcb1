/**
 * The feed positions of events the log's receipts wait for, looked up in the store with every
 * other asked for in the same turn of the event loop (one query for a burst of receipts).
 */
import type { LogStore } from '../store/log.js';

/** See the file comment. */
export class PositionLookup {
  readonly #log: Pick<LogStore, 'positions'>;
  /** The positions asked for in this turn, with who asked. */
  readonly #asked = new Map<string, ((position: number | undefined) => void)[]>();

  constructor(log: Pick<LogStore, 'positions'>) {
    this.#log = log;
  }

  /** The feed position of `eventId`; undefined when not numbered or the lookup failed. */
  positionOf(eventId: string): Promise<number | undefined> {
    return new Promise((resolve) => {
      const asked = this.#asked.get(eventId);
      if (asked === undefined) this.#asked.set(eventId, [resolve]);
      else asked.push(resolve);
      if (this.#asked.size > 1 || (asked !== undefined && asked.length > 1)) return;
      setImmediate(() => {
        const batch = new Map(this.#asked);
        this.#asked.clear();
        const answer = (positions: Map<string, number>): void => {
          for (const [id, resolvers] of batch) for (const r of resolvers) r(positions.get(id));
        };
        this.#log.positions([...batch.keys()]).then(answer, () => answer(new Map()));
      });
    });
  }
}
