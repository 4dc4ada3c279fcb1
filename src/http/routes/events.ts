/**
 * The event feed (`GET /ePrescription/events`) and its live stream (`…/events/stream`, Server-Sent
 * Events): the events the caller may see, in commit order, after a cursor. Both need a token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  EventStream,
  EventStreamMessage,
  FEED_PAGE,
  FeedPage,
  FeedQuery,
  StreamQuery,
  ref,
} from '../../api/index.js';
import { parseBearer } from '../../auth/index.js';
import type { Principal } from '../../auth/index.js';
import { parseCursor, readFeedPage } from '../../service/index.js';
import type { FeedViewer } from '../../store/types.js';
import type { AppDeps } from '../deps.js';
import { requirePrincipal } from '../auth-hook.js';
import { DEFAULT_STREAM_OPTIONS, EventStreams } from '../event-streams.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { BEARER_CALL, errorResponses } from './route-schemas.js';

const tags = ['events'];
const bearer = [{ bearer: [] }];
/** What a call of the feed can meet: no 403 (every role reads its own part of the feed). */
const FEED_ERRORS = BEARER_CALL.filter((status) => status !== 403);

const WHO_SEES =
  'A prescriber sees every event of the prescriptions it issued; a pharmacist its own events ' +
  'and the dispense, lock, unlock, cancel and revoke events of others on prescriptions it had ' +
  'acted on before. Events are shown as verify shows them. Each event is served only when its ' +
  'signature verifies and who sees it follows from signed events; verify checks whole chains.';

/** Who reads: the caller's role and subject. */
function viewerOf(principal: Principal): FeedViewer {
  return { role: principal.role, sub: principal.sub };
}

/** Where a stream starts: after `Last-Event-ID` (a reconnect), else `after`, else undefined. */
function streamAfter(request: FastifyRequest<{ Querystring: StreamQuery }>): number | undefined {
  const last = request.headers['last-event-id'];
  // Node joins a repeated header into one value, which is no cursor.
  if (typeof last === 'string') return parseCursor(last, 'Last-Event-ID');
  const { after } = request.query;
  return after === undefined ? undefined : parseCursor(after, 'after');
}

/** Registers the feed and the stream; the application's close ends the open streams. */
export function registerEventRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { rows, clock, now } = deps.feed;
  const streams = new EventStreams(
    rows,
    clock,
    { ...DEFAULT_STREAM_OPTIONS, ...deps.feed.streams },
    now,
  );
  // Before the server stops accepting and waits for its connections: open streams never end.
  app.addHook('preClose', async () => streams.closeAll());

  app.get<{ Querystring: FeedQuery }>(
    '/ePrescription/events',
    {
      preValidation: refuseMalformedQuery,
      schema: {
        tags,
        summary: 'The events the caller may see, in commit order, after a cursor (one page)',
        description:
          `${WHO_SEES} Store \`next\` and pass it as \`after\` on the next call: a client that ` +
          'does so never misses and never repeats an event, however many instances append.',
        security: bearer,
        querystring: FeedQuery,
        response: { 200: ref(FeedPage), ...errorResponses(FEED_ERRORS) },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const { after, limit } = request.query;
      return readFeedPage(
        { store: rows, clock },
        viewerOf(principal),
        after === undefined ? 0 : parseCursor(after, 'after'),
        limit === undefined ? FEED_PAGE.default : Number(limit),
      );
    },
  );

  app.get<{ Querystring: StreamQuery }>(
    '/ePrescription/events/stream',
    {
      // A HEAD would open a stream that sends nothing.
      exposeHeadRoute: false,
      config: { longLived: true },
      preValidation: refuseMalformedQuery,
      schema: {
        tags,
        summary: 'The feed as Server-Sent Events, live',
        description:
          `${WHO_SEES} Each message's \`id\` is the event's cursor and its \`data\` a ` +
          '`FeedItem`; a reconnecting client sends the last `id` as `Last-Event-ID` and gets ' +
          'exactly the events it missed. Without `Last-Event-ID` or `after`, the stream starts ' +
          'with the events appended from now on. A comment line is sent every 15 s; the stream ' +
          'ends when the token expires. At most 5 streams per client at once (429 beyond).',
        security: bearer,
        querystring: StreamQuery,
        headers: {
          type: 'object',
          properties: {
            'last-event-id': {
              type: 'string',
              description: 'The `id` of the last message received: resume after it.',
            },
          },
        },
        response: {
          200: {
            description: 'An endless `text/event-stream`, one message per event.',
            content: {
              'text/event-stream': {
                schema: ref(EventStream),
                // The schema of each message, as OpenAPI 3.2's `itemSchema` states it (3.1 has no keyword).
                'x-itemSchema': ref(EventStreamMessage),
              },
            },
          },
          ...errorResponses(FEED_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const after = streamAfter(request);
      streams.admit(principal.sub);
      const head = await clock.look();
      // Checked again: the subject may have opened another stream meanwhile.
      streams.admit(principal.sub);
      reply.hijack();
      // The headers set so far (the trace, nosniff) are Fastify's until it sends: copied over.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // nginx would buffer the stream otherwise.
        'x-accel-buffering': 'no',
      });
      const token = parseBearer(request.headers.authorization, request.headers['token-type']);
      streams.open(
        reply.raw,
        {
          ...viewerOf(principal),
          expiresAtMs: principal.expiresAt * 1000,
          stillActive: async () =>
            token !== undefined && (await deps.checker.check(token))?.sub === principal.sub,
        },
        { after: after ?? head, head },
      );
    },
  );
}
