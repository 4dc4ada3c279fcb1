/**
 * A response serializer built with only the named shapes its schema reaches writes what Fastify's
 * own compiler writes with all of them, and equal schemas share one serializer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fastJsonStringify from 'fast-json-stringify';
import type { Schema } from 'fast-json-stringify';
import { alreadyDispensedExample, sharedSchemas } from '../api/index.js';
import { buildSerializerFactory, reachableShapes } from './serializer-factory.js';

const shapes = Object.fromEntries(sharedSchemas().map((s) => [s.$id as string, s]));

test('a schema reaches the shapes it names and those they name, no others', () => {
  const local = {
    A: { $id: 'A', type: 'object', properties: { b: { $ref: 'B' } } },
    B: { $id: 'B', type: 'array', items: { $ref: 'C#/definitions/x' } },
    C: { $id: 'C', definitions: { x: { type: 'string' } } },
    D: { $id: 'D', type: 'string' },
  };
  assert.deepEqual(Object.keys(reachableShapes({ $ref: 'A' }, local)).sort(), ['A', 'B', 'C']);
  assert.deepEqual(Object.keys(reachableShapes({ type: 'string' }, local)), []);
  // The error body names the cause and trace shapes of erx, not the prescription's.
  const error = Object.keys(reachableShapes({ $ref: 'ErrorBody' }, shapes));
  assert.ok(error.includes('ErrorBody'));
  assert.ok(!error.includes('Prescription'));
  assert.ok(error.length < Object.keys(shapes).length / 4, error.join(', '));
});

test('writes what fast-json-stringify writes with every shape, extra fields dropped alike', () => {
  const compile = buildSerializerFactory(shapes, {});
  const refusal = { ...alreadyDispensedExample, internal: 'never sent' };
  const answers: [string, unknown][] = [
    ['ErrorBody', refusal],
    ['TokenErrorBody', { ...refusal, error: 'invalid_client', error_description: refusal.message }],
  ];
  for (const [id, answer] of answers) {
    assert.ok(!compile({ schema: { $ref: id } })(answer).includes('never sent'));
    const schema = { $ref: id };
    const everyShape = fastJsonStringify(schema as Schema, {
      schema: shapes as unknown as Record<string, Schema>,
    });
    assert.equal(compile({ schema })(answer), everyShape(answer), id);
  }
});

test('equal schemas of different routes share one serializer', () => {
  const compile = buildSerializerFactory(shapes, {});
  const first = compile({ schema: { $ref: 'ErrorBody' } });
  assert.equal(compile({ schema: { $ref: 'ErrorBody' } }), first);
  assert.notEqual(compile({ schema: { $ref: 'HealthStatus' } }), first);
  // Another instance builds its own: nothing is kept between instances.
  assert.notEqual(buildSerializerFactory(shapes, {})({ schema: { $ref: 'ErrorBody' } }), first);
});
