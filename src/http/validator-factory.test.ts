/**
 * The create route compiles no validator for the body the service judges, and every other part is
 * validated as Fastify validates it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { validatorFactory } from './validator-factory.js';

const Judged = {
  $id: 'Judged',
  type: 'object',
  required: ['a'],
  properties: { a: { type: 'string' } },
};
const Checked = {
  $id: 'Checked',
  type: 'object',
  required: ['a'],
  properties: { a: { type: 'string' } },
};

async function appWith(): Promise<ReturnType<typeof Fastify>> {
  const app = Fastify({
    schemaController: {
      compilersFactory: { buildValidator: validatorFactory(new Set(['Judged'])) },
    },
  });
  app.addSchema(Judged);
  app.addSchema(Checked);
  app.post('/judged', { schema: { body: { $ref: 'Judged' } } }, async (request) => ({
    got: request.body,
  }));
  app.post(
    '/checked',
    {
      schema: {
        body: { $ref: 'Checked' },
        querystring: { type: 'object', properties: { n: { type: 'integer' } } },
      },
    },
    async (request) => ({ got: request.body }),
  );
  app.post(
    '/query-of-judged',
    {
      schema: {
        body: { $ref: 'Judged' },
        querystring: { type: 'object', properties: { n: { type: 'integer' } } },
      },
    },
    async () => ({ ok: true }),
  );
  await app.ready();
  return app;
}

test('a body the service judges reaches the handler whatever it holds', async () => {
  const app = await appWith();
  const answer = await app.inject({ method: 'POST', url: '/judged', payload: { b: 1 } });
  assert.equal(answer.statusCode, 200);
  assert.deepEqual(answer.json(), { got: { b: 1 } });
  await app.close();
});

test('other bodies and the query of every route are validated as before', async () => {
  const app = await appWith();
  const body = await app.inject({ method: 'POST', url: '/checked', payload: { b: 1 } });
  assert.equal(body.statusCode, 400);
  assert.match(body.json().message, /must have required property 'a'/);
  const query = await app.inject({ method: 'POST', url: '/query-of-judged?n=x', payload: {} });
  assert.equal(query.statusCode, 400);
  assert.match(query.json().message, /querystring\/n must be integer/);
  await app.close();
});
