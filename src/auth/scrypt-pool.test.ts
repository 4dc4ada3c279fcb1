/** The secret-hashing threads: same keys as scrypt, a bounded queue, lanes served in turn. */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { ErxError } from '../errors.js';
import { ScryptPool } from './scrypt-pool.js';
import type { ScryptJob } from './secret-hash.js';

/** A cheap job (N = 2^10), so that the tests measure order, not cost. */
function job(secret: string, n = 1024): ScryptJob {
  return { secret, salt: randomBytes(16), keyLength: 32, n, r: 8, p: 1 };
}

const pool = new ScryptPool({ threads: 1, maxWaiting: 8 });
after(() => pool.close());

describe('ScryptPool', () => {
  test('derives the key scrypt derives, on a thread started at the first job', async () => {
    const fresh = new ScryptPool();
    try {
      assert.equal(fresh.started, 0, 'creating a pool starts nothing');
      const asked = job('pool-secret', 32768);
      const key = await fresh.derive(asked);
      const expected = scryptSync(asked.secret, asked.salt, 32, {
        N: 32768,
        r: 8,
        p: 1,
        maxmem: 256 * 32768 * 8,
      });
      assert.deepEqual(key, expected);
      assert.equal(fresh.started, 1);
    } finally {
      await fresh.close();
    }
  });

  test('past maxWaiting jobs, a new one is refused at once with 503 and Retry-After', async () => {
    const asked = Array.from({ length: 8 }, (_, i) => pool.derive(job(`queued-${i}`)));
    assert.equal(pool.waiting, 8);
    await assert.rejects(
      pool.derive(job('one too many')),
      (error: unknown) =>
        error instanceof ErxError && error.code === 'service_unavailable' && error.retryAfter === 1,
    );
    await Promise.all(asked);
    assert.equal(pool.waiting, 0);
    assert.equal((await pool.derive(job('room again'))).length, 32);
  });

  test('lanes are served in turn: one lane’s backlog does not hold up another', async () => {
    const order: string[] = [];
    const run = (lane: string, name: string) =>
      pool.derive(job(name), lane).then(() => order.push(name));
    const flood = Array.from({ length: 6 }, (_, i) => run('198.51.100.1', `flood-${i}`));
    const single = run('192.0.2.1', 'single');
    await Promise.all([...flood, single]);
    // Only the job that was running when it came goes before it.
    assert.equal(order.indexOf('single'), 1, order.join(' '));
    assert.equal(order.at(-1), 'flood-5');
  });

  test('close() fails queued and later jobs and ends the threads', async () => {
    const closing = new ScryptPool({ threads: 1 });
    const running = assert.rejects(closing.derive(job('running', 32768)));
    const queued = assert.rejects(closing.derive(job('queued')), /closed/);
    await closing.close();
    await Promise.all([running, queued]);
    await assert.rejects(closing.derive(job('later')), /closed/);
    assert.equal(closing.started, 0);
  });
});
