/**
 * A hostile log server for `erx log monitor`: a validly signed tree of 2^32 identical leaves whose
 * tiles and entry bundles are made on demand (every tile holds the one hash of its level), and
 * hooks for a test to answer any request otherwise (a gzip bomb, a redirect, an answer held back).
 * It counts what it is asked, so tests speak in requests, not in time.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ed25519NoteSigner,
  ed25519PrivateKeyFromSeed,
  ed25519VerifierKey,
  encodeEntryBundle,
  formatCheckpoint,
  leafHash,
  nodeHash,
  parseTilePath,
  signNote,
  TILE_HEIGHT,
} from '../../../src/tlog/index.js';

const ORIGIN = 'erx.test/hostile-log';
const key = ed25519PrivateKeyFromSeed(createHash('sha256').update('hostile log key').digest());

/** The verifier key of the hostile log's checkpoints. */
export const HOSTILE_LOG_KEY = ed25519VerifierKey(ORIGIN, key);

/** Leaves the hostile tree claims. */
export const HUGE_TREE_SIZE = 2 ** 32;

/** What a test may do with a request instead of the log's own answer: true when it answered. */
export type Override = (
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
) => boolean;

/** A running hostile log: its base URL, the paths asked so far, and the override in force. */
export interface HostileLog {
  readonly url: string;
  readonly requests: string[];
  override: Override | undefined;
  close(): Promise<void>;
}

/** Starts the hostile log server on 127.0.0.1. */
export async function startHostileLog(): Promise<HostileLog> {
  const entry = Buffer.from('the same event, 2^32 times');
  const levels: Buffer[] = [leafHash(entry)];
  for (let k = 0; k < 32; k++) levels.push(nodeHash(levels[k]!, levels[k]!));
  const note = await signNote(
    formatCheckpoint({ origin: ORIGIN, size: HUGE_TREE_SIZE, root: levels[32]! }),
    [ed25519NoteSigner(ORIGIN, key)],
  );
  const answer = (path: string): Buffer | undefined => {
    if (path === 'checkpoint') return Buffer.from(note);
    if (path === 'key') return Buffer.from(HOSTILE_LOG_KEY);
    const address = parseTilePath(path);
    if (address.kind === 'entries') return encodeEntryBundle(Array(address.width).fill(entry));
    const hash = levels[address.tile.level * TILE_HEIGHT];
    return hash && Buffer.concat(Array(address.tile.width).fill(hash));
  };
  const log: { -readonly [K in keyof HostileLog]: HostileLog[K] } = {
    url: '',
    requests: [],
    override: undefined,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    request.resume();
    const url = request.url ?? '';
    const path = url.startsWith('/log/') ? url.slice('/log/'.length) : url;
    log.requests.push(path);
    if (log.override?.(path, request, response) === true) return;
    let body: Buffer | undefined;
    try {
      body = answer(path);
    } catch {
      body = undefined;
    }
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  log.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return log;
}
