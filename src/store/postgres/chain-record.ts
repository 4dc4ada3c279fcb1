/** The rows of the one-statement chain read (`SQL.getChain`) and their mapping. */
import type { EventRecord, PrescriptionRecord } from '../records.js';
import { toEvent, toPrescription } from '../records.js';
import type { ChainState } from '../types.js';

/** One row of the chain join: the prescription's columns (`id` as `p_id`) and one event's. */
export type ChainRecord = Omit<PrescriptionRecord, 'id'> & { p_id: string } & {
  [K in keyof EventRecord]: EventRecord[K] | null;
};

/** The chain the joined rows describe, or undefined when there is no prescription row. */
export function toChain(rows: readonly ChainRecord[]): ChainState | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const prescription = toPrescription({ ...first, id: first.p_id });
  const events = rows
    // A left join yields one row of nulls when there are no events (not reachable through the
    // store, which inserts a prescription with its create event, but cheap to read right).
    .filter((r) => r.seq !== null)
    .map((r) =>
      toEvent({
        prescription_id: r.prescription_id as string,
        seq: r.seq as number | string,
        id: r.id as string,
        parent_hash: r.parent_hash,
        body: r.body as string,
        hash: r.hash as string,
        signature: r.signature as string,
      }),
    );
  return { prescription, events };
}
