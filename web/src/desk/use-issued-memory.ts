/**
 * The desk's memory of what it issued ({@link IssuedMemory}) as component state: what the browser
 * keeps, and what was issued on this page, so that a browser refusing storage still shows a QR
 * code again until the page is left.
 */
import { useMemo, useState } from 'preact/hooks';
import { IssuedMemory } from './issued-memory.js';
import type { Remembered } from './issued-memory.js';

function withoutLink(r: Remembered): Remembered {
  return { id: r.id, at: r.at, initials: r.initials, meds: r.meds };
}

export interface IssuedMemoryState {
  /** Every record, newest first. */
  remembered: readonly Remembered[];
  remember(record: Remembered): void;
  /** Drops the link of a prescription no longer open. */
  dropLink(id: string): void;
  forget(id: string): void;
}

/** The memory of the prescriber signed in as `clientId`. */
export function useIssuedMemory(clientId: string): IssuedMemoryState {
  const memory = useMemo(() => new IssuedMemory(clientId), [clientId]);
  const [kept, setKept] = useState(() => memory.all());
  const [page, setPage] = useState<readonly Remembered[]>([]);
  const remembered = useMemo(() => {
    const ids = new Set(kept.map((r) => r.id));
    return [...page.filter((r) => !ids.has(r.id)), ...kept];
  }, [kept, page]);
  return {
    remembered,
    remember: (record) => {
      memory.remember(record);
      setPage((made) => [record, ...made.filter((r) => r.id !== record.id)]);
      setKept(memory.all());
    },
    dropLink: (id) => {
      memory.dropLink(id);
      setPage((made) => made.map((r) => (r.id === id ? withoutLink(r) : r)));
      setKept(memory.all());
    },
    forget: (id) => {
      memory.forget(id);
      setPage((made) => made.filter((r) => r.id !== id));
      setKept(memory.all());
    },
  };
}
