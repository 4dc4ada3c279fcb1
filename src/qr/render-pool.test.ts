import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isErxError } from '../errors.js';
import { decodeQrPng } from './decode-png.js';
import { QrRenderPool } from './render-pool.js';
import { renderQrPng, renderQrSvg } from './render.js';

const LINK = `http://localhost:8080/rx/#CHMED16A1${'H4sIAAAAAAAAA'.repeat(60)}&i=Dr.%20A%20(HIN%7Ca)&t=1795297788&s=${'ab'.repeat(64)}`;

const refusedAsBusy = (error: unknown): boolean =>
  isErxError(error) && error.code === 'service_unavailable' && error.retryAfter === 1;

describe('QR render pool', () => {
  it('renders in its thread what the calling thread renders, PNG and SVG', async () => {
    const pool = new QrRenderPool({ threads: 1 });
    try {
      assert.equal(pool.started, 0, 'a new pool starts no thread');
      const png = await pool.reserve().png([LINK], 400);
      assert.ok(png.equals(await renderQrPng(LINK, 400)));
      assert.equal(decodeQrPng(png), LINK);
      assert.equal(await pool.reserve().svg([LINK], 300), await renderQrSvg(LINK, 300));
      assert.equal(pool.started, 1);
      assert.equal(pool.queued, 0, 'every place is freed once its render is answered');
    } finally {
      await pool.close();
    }
  });

  it('refuses a place beyond its bound with 503, and frees places on release', async () => {
    const pool = new QrRenderPool({ threads: 1, maxQueued: 2 });
    try {
      const first = pool.reserve();
      const second = pool.reserve();
      assert.throws(() => pool.reserve(), refusedAsBusy);
      first.release();
      first.release(); // a second release frees nothing more
      const third = pool.reserve();
      assert.throws(() => pool.reserve(), refusedAsBusy);
      const rendering = second.png([LINK], 200);
      assert.equal(pool.queued, 2, 'a render holds its place until it is answered');
      await rendering;
      assert.equal(pool.queued, 1);
      third.release();
      assert.equal(pool.queued, 0);
      await assert.rejects(second.png([LINK], 200), /used once/);
    } finally {
      await pool.close();
    }
  });

  it('ends its threads on close and refuses every later render', async () => {
    const pool = new QrRenderPool({ threads: 2 });
    await Promise.all([pool.reserve().png([LINK], 100), pool.reserve().png([LINK], 100)]);
    assert.equal(pool.started, 2);
    const held = pool.reserve();
    await pool.close();
    assert.equal(pool.started, 0);
    await assert.rejects(held.png([LINK], 100), /closed/);
    assert.throws(() => pool.reserve(), refusedAsBusy);
  });
});
