/** Messages between the bulk loader and its signing workers (plain data: structured clone). */
import type { EventRow, PrescriptionRow } from '../src/store/types.js';

/** What every worker needs to know once. */
export interface LoaderWorkerInit {
  readonly dataDir: string;
  readonly prescriptionUrl: string;
  /** Unix seconds: the `t` of every loaded link, and the `Dt` of every loaded document. */
  readonly issuedAt: number;
  /** erx's `ERX_PRESCRIPTION_VALIDITY`: the expiry signed into each row's terms is made with it. */
  readonly validityMs: number;
  readonly prescriber: { readonly name: string; readonly sub: string };
  readonly pharmacist: { readonly name: string; readonly sub: string };
  /** In-flight chains per worker: enough to keep the crypto thread pool busy. */
  readonly concurrency: number;
}

/** Build `count` prescriptions with `events` events each (create + partial dispenses). */
export interface LoaderTask {
  readonly taskId: number;
  readonly count: number;
  readonly events: number;
}

/** One signed prescription: its row, its chain in order, and its link. */
export interface LoadedChain {
  readonly row: PrescriptionRow;
  readonly events: EventRow[];
  readonly link: string;
}

export interface LoaderTaskDone {
  readonly taskId: number;
  readonly chains: LoadedChain[];
}

export type LoaderWorkerMessage =
  | { readonly kind: 'ready' }
  | ({ readonly kind: 'done' } & LoaderTaskDone)
  | { readonly kind: 'failed'; readonly message: string };
