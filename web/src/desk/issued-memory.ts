/**
 * The desk's memory of what it issued in this browser (the service keeps no patient data and no
 * link): per signed-in prescriber, one record per prescription with the patient's initials, the
 * medicaments' ids and, while the prescription is open, its link, so its QR code can be shown
 * and printed again after a reload. Bounded in number and age (docs/decisions.md, "The desk
 * remembers what it issued, in the practice's browser"); each record can be forgotten.
 */

/** What the desk remembers of one prescription it issued. */
export interface Remembered {
  id: string;
  /** When it was issued (ISO date-time), for the age bound. */
  at: string;
  /** The patient's initials (`A. M.`), never the name. */
  initials: string;
  /** The medicaments' ids and id types, for their names from the catalogue. */
  meds: { id: string; idType: number | undefined }[];
  /** The link, while the prescription is open. */
  link?: string;
}

/** At most this many records per prescriber, the newest kept. */
export const MEMORY_LIMIT = 200;

/** Records older than this many days are dropped. */
export const MEMORY_DAYS = 90;

const DAY_MS = 86_400_000;

/** Where the records of the prescriber signed in as `clientId` are kept. */
function key(clientId: string): string {
  return `erx.desk.issued.${clientId}`;
}

/** The initials of a first and last name (`Anna`, `Muster` → `A. M.`). */
export function initialsOf(first: string | undefined, last: string | undefined): string {
  return [first, last]
    .map((name) => name?.trim().charAt(0).toUpperCase() ?? '')
    .filter((letter) => letter !== '')
    .map((letter) => `${letter}.`)
    .join(' ');
}

function isRemembered(value: unknown): value is Remembered {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    typeof r.at === 'string' &&
    typeof r.initials === 'string' &&
    Array.isArray(r.meds) &&
    (r.link === undefined || typeof r.link === 'string')
  );
}

// The records within the bounds, newest first.
function bounded(records: readonly Remembered[], now: Date): Remembered[] {
  const oldest = now.getTime() - MEMORY_DAYS * DAY_MS;
  return records
    .filter((r) => Date.parse(r.at) >= oldest)
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, MEMORY_LIMIT);
}

/** The part of the Web Storage API the memory uses. */
export interface KeptStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

// The browser's local storage; reading it throws where storage is disabled.
function localStore(): KeptStorage | undefined {
  try {
    return (globalThis as { localStorage?: KeptStorage }).localStorage;
  } catch {
    return undefined;
  }
}

/** The desk's memory for one prescriber in this browser's local storage. */
export class IssuedMemory {
  readonly #key: string;
  readonly #storage: KeptStorage | undefined;

  constructor(clientId: string, storage: KeptStorage | undefined = localStore()) {
    this.#key = key(clientId);
    this.#storage = storage;
  }

  /** Every record within the bounds, newest first. */
  all(now = new Date()): Remembered[] {
    try {
      const parsed: unknown = JSON.parse(this.#storage?.getItem(this.#key) ?? '[]');
      return bounded(Array.isArray(parsed) ? parsed.filter(isRemembered) : [], now);
    } catch {
      // Unreadable (edited by hand, or storage refused): nothing is remembered.
      return [];
    }
  }

  #save(records: readonly Remembered[], now: Date): void {
    try {
      const kept = bounded(records, now);
      if (kept.length === 0) this.#storage?.removeItem(this.#key);
      else this.#storage?.setItem(this.#key, JSON.stringify(kept));
    } catch {
      // Storage full or refused (private mode): the desk works without its memory.
    }
  }

  /** Remembers a prescription just issued. */
  remember(record: Remembered, now = new Date()): void {
    this.#save([record, ...this.all(now).filter((r) => r.id !== record.id)], now);
  }

  /** Drops the link of `id` (no longer open), keeping its initials and products. */
  dropLink(id: string, now = new Date()): void {
    const records = this.all(now);
    if (!records.some((r) => r.id === id && r.link !== undefined)) return;
    this.#save(
      records.map((r) =>
        r.id === id ? { id: r.id, at: r.at, initials: r.initials, meds: r.meds } : r,
      ),
      now,
    );
  }

  /** Forgets everything about `id`. */
  forget(id: string, now = new Date()): void {
    this.#save(
      this.all(now).filter((r) => r.id !== id),
      now,
    );
  }
}
