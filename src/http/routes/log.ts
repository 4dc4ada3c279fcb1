/**
 * The transparency log's read-only resources (c2sp.org/tlog-tiles), for anyone and without a token,
 * held to the anonymous rate limit per address: `GET /log/checkpoint` (the newest signed checkpoint
 * with its cosignatures), `GET /log/key` (its verifier key), `GET /log/tile/<L>/<N>[.p/<W>]` and
 * `GET /log/tile/entries/<N>[.p/<W>]`. Full tiles never change and are cached for a year; partial
 * ones and the checkpoint briefly (docs/decisions.md).
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { LogCheckpointNote, LogTile, LogTileParams, LogVerifierKey, ref } from '../../api/index.js';
import { ErxError } from '../../errors.js';
import { readLogResource } from '../../log-serving/read-log-resource.js';
import type { AppDeps } from '../deps.js';
import { ANY_CALL, errorResponses } from './route-schemas.js';
import type { ErrorStatus } from './route-schemas.js';

/** `Cache-Control` of a full tile or bundle: its bytes never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** `Cache-Control` of a partial tile: a full one replaces it as the tree grows. */
export const SHORT_LIVED = 'public, max-age=60';
/** `Cache-Control` of the checkpoint: tlog-tiles asks for no caching beyond a few seconds. */
export const CHECKPOINT_CACHE = 'no-cache';
const KEY_CACHE = 'public, max-age=300';

const TEXT = 'text/plain; charset=utf-8';
const BYTES = 'application/octet-stream';
const ANONYMOUS: readonly ErrorStatus[] = [401, ...ANY_CALL];

function text(schema: object, description: string) {
  return { description, content: { 'text/plain': { schema: ref(schema) } } };
}

/** Registers the log's checkpoint, key and tile routes. */
export function registerLogRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { log, verifierKey, tiles } = deps.transparency;
  app.get(
    '/log/checkpoint',
    {
      schema: {
        tags: ['transparency log'],
        summary: 'The newest signed checkpoint',
        description:
          'The newest checkpoint of the transparency log (c2sp.org/tlog-checkpoint) with the ' +
          'witnesses’ cosignatures, as a signed note. `404` while the log is empty.',
        response: {
          200: text(LogCheckpointNote, 'The signed checkpoint note.'),
          ...errorResponses([404, ...ANONYMOUS]),
        },
      },
    },
    async (_request, reply) => {
      const note = await log.checkpointNote();
      if (note === undefined) {
        throw new ErxError('not_found', 'The log has no checkpoint yet.', {
          causeCode: 'no_checkpoint',
        });
      }
      return reply.type(TEXT).header('cache-control', CHECKPOINT_CACHE).send(note);
    },
  );
  app.get(
    '/log/key',
    {
      schema: {
        tags: ['transparency log'],
        summary: 'The log’s verifier key',
        description: 'The key that signs the checkpoints, in c2sp.org/signed-note vkey form.',
        response: {
          200: text(LogVerifierKey, 'The verifier key and a newline.'),
          ...errorResponses(ANONYMOUS),
        },
      },
    },
    async (_request, reply) =>
      reply.type(TEXT).header('cache-control', KEY_CACHE).send(`${verifierKey}\n`),
  );
  app.get<{ Params: Static<typeof LogTileParams> }>(
    '/log/tile/*',
    {
      schema: {
        tags: ['transparency log'],
        summary: 'A tile of the Merkle tree, or an entry bundle',
        description:
          'c2sp.org/tlog-tiles: `<L>/<N>[.p/<W>]` is the tile of hashes at level L, `entries/' +
          '<N>[.p/<W>]` the bundle of the events’ hashes of level 0 tile N. Only tiles inside the ' +
          'newest checkpoint’s tree exist (`404` otherwise); a path the spec does not define is ' +
          '`400`. Full tiles are immutable.',
        params: LogTileParams,
        response: {
          200: {
            description: 'The tile’s bytes.',
            content: { [BYTES]: { schema: ref(LogTile) } },
          },
          ...errorResponses([400, 404, ...ANONYMOUS]),
        },
      },
    },
    async (request, reply) => {
      // A tile missing now may exist in a moment: a cache must not keep the 404.
      reply.header('cache-control', CHECKPOINT_CACHE);
      const size = (await log.checkpoint())?.size ?? 0;
      const resource = await readLogResource(tiles, size, `tile/${request.params['*']}`);
      return reply
        .type(BYTES)
        .header('cache-control', resource.full ? IMMUTABLE : SHORT_LIVED)
        .send(resource.bytes);
    },
  );
}
