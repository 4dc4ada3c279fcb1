/**
 * One floor-sign worker: ES384 (ECDSA P-384, SHA-384) signatures over a 64-character hex string,
 * the ledger's payload, as fast as this thread can, between two wall-clock instants shared by all
 * workers.
 */
import { KeyObject, sign } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import type { SignGo, SignWorkerInit, SignWorkerMessage } from './sign-protocol.js';

const init = workerData as SignWorkerInit;
const port = parentPort!;
const ES384 = { name: 'ECDSA', hash: 'SHA-384' } as const;
const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, [
  'sign',
  'verify',
]);
const keyObject = KeyObject.from(keys.privateKey);
const payload = new TextEncoder().encode('f'.repeat(64));

async function signUntil(until: number): Promise<number> {
  let count = 0;
  if (init.method === 'node-crypto-sync') {
    while (Date.now() < until) {
      sign('sha384', payload, { key: keyObject, dsaEncoding: 'ieee-p1363' });
      count++;
    }
    return count;
  }
  const lane = async (): Promise<void> => {
    while (Date.now() < until) {
      await crypto.subtle.sign(ES384, keys.privateKey, payload);
      count++;
    }
  };
  await Promise.all(Array.from({ length: init.concurrency }, lane));
  return count;
}

port.once('message', (go: SignGo) => {
  const wait = Math.max(0, go.from - Date.now());
  setTimeout(() => {
    const started = Date.now();
    void signUntil(go.until).then((signatures) => {
      const seconds = (Date.now() - started) / 1000;
      port.postMessage({ kind: 'done', signatures, seconds } satisfies SignWorkerMessage);
    });
  }, wait);
});
port.postMessage({ kind: 'ready' } satisfies SignWorkerMessage);
