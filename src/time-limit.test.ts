/** A time limit ends the wait for a call, whatever the call does with its signal. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withTimeLimit } from './time-limit.js';

describe('withTimeLimit', () => {
  test("answers the call's value when it settles in time, and its failure", async () => {
    assert.equal(await withTimeLimit(1_000, async () => 7), 7);
    await assert.rejects(
      withTimeLimit(1_000, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
  });

  test('rejects with a TimeoutError and aborts the signal of a call that ignores it', async () => {
    let seen: AbortSignal | undefined;
    const started = performance.now();
    await assert.rejects(
      withTimeLimit(50, (signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      }),
      (error: Error) => error.name === 'TimeoutError',
    );
    assert.ok(performance.now() - started >= 45);
    assert.equal(seen?.aborted, true);
  });

  test('a call failing after the limit is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      let fail: (error: Error) => void = () => undefined;
      const late = new Promise<never>((_, reject) => (fail = reject));
      await assert.rejects(
        withTimeLimit(20, () => late),
        (error: Error) => error.name === 'TimeoutError',
      );
      fail(new Error('late'));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
