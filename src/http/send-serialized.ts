/** Encoding an answer as the route's response schema would, for answers whose bytes are kept. */
import type { FastifyReply } from 'fastify';

/** `answer` as JSON text through the route's response schema (as `reply.send` would encode it). */
export function serializeWith(reply: FastifyReply, answer: object): string {
  const text = reply.serialize(answer);
  // A schema serialiser answers a string (Fastify's types also allow bytes from custom ones).
  return typeof text === 'string' ? text : Buffer.from(text as Buffer).toString('utf8');
}
