/** Shared answers are serialised once, exactly as the route's response schema serialises them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { sendSerialized } from './send-serialized.js';

const schema = {
  type: 'object',
  properties: { id: { type: 'string' }, text: { type: 'string' } },
} as const;

async function appAnswering(answer: () => object): Promise<{
  get: () => Promise<{ body: string; type: string | undefined }>;
  serialisations: () => number;
}> {
  let count = 0;
  const app = Fastify();
  app.get(
    '/',
    {
      schema: { response: { 200: schema } },
      // The schema's own serialiser, counted.
      serializerCompiler: () => (data) => {
        count++;
        const { id, text } = data as { id?: string; text?: string };
        return JSON.stringify({ id, text });
      },
    },
    async (_request, reply) => sendSerialized(reply, answer()),
  );
  await app.ready();
  return {
    get: async () => {
      const res = await app.inject({ method: 'GET', url: '/' });
      return { body: res.body, type: String(res.headers['content-type']) };
    },
    serialisations: () => count,
  };
}

test('a frozen answer is serialised once and its bytes sent again', async () => {
  const shared = Object.freeze({ id: 'a', text: 'grüezi "du"', extra: 'not in the schema' });
  const app = await appAnswering(() => shared);
  for (let i = 0; i < 3; i++) {
    const res = await app.get();
    assert.equal(res.body, '{"id":"a","text":"grüezi \\"du\\""}');
    assert.equal(res.type, 'application/json; charset=utf-8');
  }
  assert.equal(app.serialisations(), 1);
});

test('an answer that can still change is serialised every time', async () => {
  let n = 0;
  const app = await appAnswering(() => ({ id: String(++n), text: 't' }));
  assert.equal((await app.get()).body, '{"id":"1","text":"t"}');
  assert.equal((await app.get()).body, '{"id":"2","text":"t"}');
  assert.equal(app.serialisations(), 2);
});
