/**
 * Time limits for erx's outgoing HTTP calls, the answer's body included. An aborted signal alone
 * does not end a `fetch` whose body is being read: Node's fetch links the caller's signal to the
 * request's own controller through a weak reference, so after a garbage collection the abort no
 * longer reaches it, and a body that trickles in is waited for to its end (20 of 20 such calls,
 * collecting every 10 ms). Here the caller stops waiting when the limit passes, whatever the
 * fetch does; the signal still asks it to stop.
 */

/** Runs `call`, rejecting with a `TimeoutError` (and aborting its signal) after `ms` ms. */
export async function withTimeLimit<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new DOMException(`no answer within ${ms} ms`, 'TimeoutError');
      controller.abort(reason);
      reject(reason);
    }, ms);
  });
  const called = call(controller.signal);
  // After the limit nobody waits for it: its failure then is not an unhandled rejection.
  called.catch(() => undefined);
  try {
    return await Promise.race([called, expired]);
  } finally {
    clearTimeout(timer);
  }
}
