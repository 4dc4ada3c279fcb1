/**
 * A witness for the tests, written from c2sp.org/tlog-witness and tlog-cosignature: an HTTP
 * server holding an Ed25519 cosigner key that answers `POST /add-checkpoint` for the logs it is
 * given (origin and log vkey). It verifies the checkpoint's log signature (403), the old size
 * against the size it last cosigned (409 with `text/x.tlog.size`), the consistency proof from its
 * last cosigned checkpoint (422), refuses a rollback (old size above the checkpoint's: 400) and a
 * fork (same size, other root: 422), persists (in memory) and answers its cosignature line.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  checkConsistency,
  cosignerVerifierKey,
  decodeBase64,
  ed25519Cosigner,
  ed25519NoteVerifier,
  emptyTreeHash,
  formatNote,
  hashesEqual,
  openNote,
  parseCheckpoint,
} from '../../src/tlog/index.js';
import type { NoteVerifier } from '../../src/tlog/index.js';

/** One add-checkpoint the witness was sent, with what it answered. */
export interface WitnessCall {
  old: number;
  size: number | undefined;
  status: number;
  at: number;
}

/** A running test witness. */
export interface TestWitness {
  readonly name: string;
  /** Its cosignature vkey (type 0x04). */
  readonly vkey: string;
  /** Its submission prefix, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every add-checkpoint so far, in order. */
  readonly calls: readonly WitnessCall[];
  /** The last cosigned checkpoint per origin. */
  state(origin: string): { size: number; root: Buffer } | undefined;
  /** Answers `status` to the next `times` requests without looking at them (an outage). */
  failNext(times: number, status?: number): void;
  close(): Promise<void>;
}

interface Request {
  old: number;
  proof: Buffer[];
  note: string;
}

/** Reads the spec's body: `old N`, proof lines, a blank line, the checkpoint; undefined if not. */
function parseRequest(body: string): Request | undefined {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return undefined;
  const lines = body.slice(0, blank).split('\n');
  const oldText = lines[0]?.startsWith('old ') ? lines[0].slice(4) : '';
  if (!/^(0|[1-9][0-9]{0,15})$/.test(oldText)) return undefined;
  const proof: Buffer[] = [];
  for (const line of lines.slice(1)) {
    const hash = decodeBase64(line);
    if (hash === undefined || hash.length !== 32) return undefined;
    proof.push(hash);
  }
  if (proof.length > 63) return undefined;
  return { old: Number(oldText), proof, note: body.slice(blank + 2) };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Starts a witness named `name` that knows the logs `logs` (their checkpoint vkeys). */
export async function startWitness(
  name: string,
  logVkeys: readonly string[],
): Promise<TestWitness> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const cosigner = ed25519Cosigner(name, privateKey);
  const logs = new Map<string, NoteVerifier>();
  for (const vkey of logVkeys) {
    const verifier = ed25519NoteVerifier(vkey);
    logs.set(verifier.name, verifier);
  }
  const states = new Map<string, { size: number; root: Buffer }>();
  const calls: WitnessCall[] = [];
  let failures = 0;
  let failureStatus = 503;

  async function addCheckpoint(body: string): Promise<[number, string, string?]> {
    const request = parseRequest(body);
    if (request === undefined) return [400, 'malformed request\n'];
    const origin = request.note.slice(0, request.note.indexOf('\n'));
    const log = logs.get(origin);
    if (log === undefined) return [404, 'unknown log\n'];
    let text: string;
    try {
      text = openNote(request.note, [log]).text;
    } catch {
      return [403, 'no valid signature by the log\n'];
    }
    const checkpoint = parseCheckpoint(text);
    if (request.old > checkpoint.size) return [400, 'old size above the checkpoint\n'];
    const state = states.get(origin);
    // Checked and updated with no await in between: one request at a time (the spec's race).
    if (request.old !== (state?.size ?? 0)) {
      return [409, `${state?.size ?? 0}\n`, 'text/x.tlog.size'];
    }
    if (checkpoint.size === 0 && !hashesEqual(checkpoint.root, emptyTreeHash())) {
      return [422, 'empty tree with another root\n'];
    }
    if (request.old === 0) {
      if (request.proof.length > 0) return [422, 'proof from the empty tree\n'];
    } else if (
      !checkConsistency(request.proof, checkpoint.size, checkpoint.root, state!.size, state!.root)
    ) {
      return [422, 'not consistent with the last cosigned checkpoint\n'];
    }
    states.set(origin, { size: checkpoint.size, root: checkpoint.root });
    const signature = Buffer.from(await cosigner.sign(Buffer.from(text, 'utf8')));
    const note = formatNote(text, [{ name, keyId: cosigner.keyId, signature }]);
    return [200, note.slice(text.length + 1)];
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    let answer: [number, string, string?];
    if (failures > 0) {
      failures--;
      answer = [failureStatus, 'unavailable\n'];
    } else if (request.method !== 'POST' || request.url !== '/add-checkpoint') {
      answer = [404, 'not found\n'];
    } else {
      answer = await addCheckpoint(body);
    }
    const parsed = parseRequest(body);
    const sizeLine = parsed?.note.split('\n')[1];
    calls.push({
      old: parsed?.old ?? -1,
      size: sizeLine === undefined ? undefined : Number(sizeLine),
      status: answer[0],
      at: Date.now(),
    });
    response.writeHead(answer[0], { 'content-type': answer[2] ?? 'text/plain; charset=utf-8' });
    response.end(answer[1]);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    name,
    vkey: cosignerVerifierKey(name, publicKey),
    url: `http://127.0.0.1:${port}`,
    calls,
    state: (origin) => states.get(origin),
    failNext: (times, status = 503) => {
      failures = times;
      failureStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
