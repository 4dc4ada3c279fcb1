/**
 * A render thread of {@link QrRenderPool} (`./render-pool.ts`): answers each job with the QR codes
 * of its texts as one PNG or SVG, rendered as the CLI renders them (`./render-codes.ts`).
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { lowerThreadPriority } from '../background-thread.js';
import { renderQrCodesPng, renderQrCodesSvg } from './render-codes.js';
import type { RenderAnswer, RenderJob } from './render-pool.js';

async function answer(job: RenderJob): Promise<RenderAnswer> {
  try {
    if (job.format === 'svg') {
      return { id: job.id, svg: await renderQrCodesSvg(job.texts, job.width) };
    }
    return { id: job.id, png: await renderQrCodesPng(job.texts, job.width) };
  } catch (error) {
    return { id: job.id, error: String(error) };
  }
}

/** Serves the pool's jobs on `port`, one after another. */
function serve(port: MessagePort): void {
  port.on('message', (job: RenderJob) => {
    void answer(job).then((done) => port.postMessage(done));
  });
}

if (parentPort === null) throw new Error('render-worker runs as a worker thread of QrRenderPool');
lowerThreadPriority();
serve(parentPort);
