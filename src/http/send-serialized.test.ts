/** Answers whose bytes are kept are encoded exactly as the route's response schema encodes them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { serializeWith } from './send-serialized.js';

const schema = {
  type: 'object',
  properties: { id: { type: 'string' }, text: { type: 'string' } },
} as const;

test('the text is what the route would send for the same answer', async () => {
  const answer = { id: 'a', text: 'grüezi "du"' };
  const app = Fastify();
  app.get('/sent', { schema: { response: { 200: schema } } }, async () => answer);
  app.get('/kept', { schema: { response: { 200: schema } } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(serializeWith(reply, answer)),
  );
  await app.ready();
  const sent = await app.inject({ method: 'GET', url: '/sent' });
  const kept = await app.inject({ method: 'GET', url: '/kept' });
  assert.equal(kept.body, sent.body);
  assert.equal(kept.body, '{"id":"a","text":"grüezi \\"du\\""}');
  await app.close();
});
