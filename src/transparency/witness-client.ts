/**
 * Asks the configured witnesses to cosign the log's newest checkpoint (c2sp.org/tlog-witness
 * `add-checkpoint`), each on a timer of its own, so nothing here ever delays an append or a
 * receipt: at most one exchange per witness per interval, longer after failures. A witness is sent
 * the consistency proof from the size it last cosigned; erx starts from 0 and learns that size
 * from the witness's 409 (the spec's way for a client without a record, e.g. after a restart or
 * when another instance pushed). A verified cosignature line is kept on its checkpoint
 * (`LogStore.addCosignature`), where the checkpoint note served picks it up.
 */
import type { LogWitnessConfig } from '../config/log-witnesses.js';
import type { LogCheckpointRow, LogStore } from '../store/log.js';
import { ed25519CosignatureVerifier, proveConsistency } from '../tlog/index.js';
import type { NoteVerifier } from '../tlog/index.js';
import { addCheckpoint, addCheckpointBody } from './add-checkpoint.js';

export interface WitnessClientOptions {
  /** Least time between two exchanges with one witness, and how often the head is read, ms. */
  readonly intervalMs?: number;
  /** Longest wait after repeated failures, ms. */
  readonly maxBackoffMs?: number;
  /** Longest wait for one answer, ms. */
  readonly timeoutMs?: number;
  /** Told of a failed exchange (the next interval tries again). */
  readonly onError?: (witness: string, error: unknown) => void;
}

const DEFAULT_INTERVAL_MS = 1_000;
const DEFAULT_MAX_BACKOFF_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 10_000;
/** 409s followed in one exchange: two instances pushing at once settle within a few. */
const MAX_CONFLICTS = 3;

/** One witness and what erx knows of it. */
interface Witness {
  readonly url: string;
  readonly verifier: NoteVerifier;
  /** The size the witness last cosigned, as it last told (0 until it tells). */
  cosigned: number;
  /** The largest checkpoint whose cosignature by this witness is kept. */
  kept: number;
  failures: number;
  timer: NodeJS.Timeout | undefined;
  exchange: Promise<void> | undefined;
}

/** Why an exchange failed. */
class WitnessFailure extends Error {
  override readonly name = 'WitnessFailure';
}

/** The witnesses of one log, pushed to in the background; ended by {@link close}. */
export class WitnessClient {
  readonly #log: LogStore;
  readonly #witnesses: Witness[];
  readonly #intervalMs: number;
  readonly #maxBackoffMs: number;
  readonly #timeoutMs: number;
  readonly #onError: (witness: string, error: unknown) => void;
  #closed = false;

  constructor(
    log: LogStore,
    witnesses: readonly LogWitnessConfig[],
    options: WitnessClientOptions = {},
  ) {
    this.#log = log;
    this.#witnesses = witnesses.map((w) => ({
      url: w.url,
      verifier: ed25519CosignatureVerifier(w.vkey),
      cosigned: 0,
      kept: 0,
      failures: 0,
      timer: undefined,
      exchange: undefined,
    }));
    this.#intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.#maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Starts each witness's timer (the first look at once). */
  start(): void {
    for (const w of this.#witnesses) this.#schedule(w, 0);
  }

  #schedule(w: Witness, ms: number): void {
    if (this.#closed) return;
    w.timer = setTimeout(() => {
      w.timer = undefined;
      w.exchange = this.#tick(w).finally(() => {
        w.exchange = undefined;
        const backoff = this.#intervalMs * 2 ** Math.min(w.failures, 16);
        this.#schedule(w, Math.min(backoff, Math.max(this.#maxBackoffMs, this.#intervalMs)));
      });
    }, ms);
    // The runtime's close() ends it; a tool that opens a runtime is not kept alive by it.
    w.timer.unref();
  }

  async #tick(w: Witness): Promise<void> {
    try {
      const head = await this.#log.head();
      if (head !== undefined && head.size > w.kept && head.size >= w.cosigned) {
        await this.#push(w, head);
      }
      w.failures = 0;
    } catch (error) {
      w.failures++;
      this.#onError(w.verifier.name, error);
    }
  }

  /** One exchange: add-checkpoint from the size the witness last cosigned, following its 409s. */
  async #push(w: Witness, head: LogCheckpointRow): Promise<void> {
    for (let conflicts = 0; ; conflicts++) {
      const old = w.cosigned;
      const proof =
        old === 0 || old === head.size
          ? []
          : await proveConsistency(head.size, old, (i) => this.#log.readHashes(i));
      const body = addCheckpointBody(old, proof, head.note);
      const answer = await addCheckpoint(w.url, body, head.note, w.verifier, this.#timeoutMs);
      if (answer.kind === 'cosigned') {
        // The witness's state moved whatever happens to the line here.
        w.cosigned = head.size;
        try {
          await this.#log.addCosignature(head.size, w.verifier.name, answer.line);
        } catch (error) {
          // A growth may have replaced this young checkpoint meanwhile (`KEPT_CHECKPOINT_SPACING_MS`):
          // its line has nowhere to go, and the next exchange sends the newer one.
          if (((await this.#log.head())?.size ?? 0) > head.size) return;
          throw error;
        }
        w.kept = head.size;
        return;
      }
      if (answer.kind === 'failed') throw new WitnessFailure(`${w.url}: ${answer.why}`);
      w.cosigned = answer.size;
      // The witness has seen a newer checkpoint (another instance's): wait for ours to grow.
      if (answer.size > head.size) return;
      if (conflicts + 1 >= MAX_CONFLICTS) {
        throw new WitnessFailure(`${w.url}: ${MAX_CONFLICTS} conflicts in a row`);
      }
    }
  }

  /** Stops the timers and waits for the exchanges under way (each ends by its timeout). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const w of this.#witnesses) clearTimeout(w.timer);
    await Promise.all(this.#witnesses.map((w) => w.exchange));
  }
}
