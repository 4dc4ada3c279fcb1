/** Messages of the floor-sign workers. */

/** How a worker signs: node:crypto one-shot (blocking) or WebCrypto (libuv thread pool). */
export type SignMethod = 'node-crypto-sync' | 'webcrypto';

export interface SignWorkerInit {
  readonly method: SignMethod;
  /** Signatures in flight per worker (WebCrypto only). */
  readonly concurrency: number;
}

/** Sign until `until` (a `performance.timeOrigin`-based epoch ms), then report. */
export interface SignGo {
  readonly from: number;
  readonly until: number;
}

export type SignWorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly signatures: number; readonly seconds: number };
