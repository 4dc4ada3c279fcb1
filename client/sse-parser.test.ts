/**
 * The CLI's event-stream parser: messages split anywhere, every line ending, multi-line data,
 * comments (heartbeats) and the id that carries over.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseParser } from './sse-parser.js';
import type { SseMessage } from './sse-parser.js';

/** Feeds `pieces` in order; all messages they complete. */
function parse(...pieces: string[]): SseMessage[] {
  const parser = new SseParser();
  return pieces.flatMap((piece) => parser.push(piece));
}

describe('SSE parser', () => {
  it('reads id, event and data, and ignores comments', () => {
    assert.deepEqual(parse(': heartbeat\n\nid: f1.1\nevent: event\ndata: {"a":1}\n\n'), [
      { id: 'f1.1', event: 'event', data: '{"a":1}' },
    ]);
  });

  it('takes a stream split anywhere, CRLF split between pieces included', () => {
    const text = 'id: f1.2\r\ndata: x\r\n\r\nid: f1.3\r\ndata: y\r\n\r\n';
    for (let cut = 0; cut <= text.length; cut += 1) {
      const got = parse(text.slice(0, cut), text.slice(cut));
      assert.deepEqual(
        got.map((m) => [m.id, m.data]),
        [
          ['f1.2', 'x'],
          ['f1.3', 'y'],
        ],
        `cut at ${cut}`,
      );
    }
  });

  it('joins data lines, defaults the event type, keeps the last id', () => {
    assert.deepEqual(parse('id: a\ndata: 1\ndata:2\r\r', 'data: 3\n\n'), [
      { id: 'a', event: 'message', data: '1\n2' },
      { id: 'a', event: 'message', data: '3' },
    ]);
  });

  it('completes nothing without a blank line or without data', () => {
    assert.deepEqual(parse('id: a\n\n', 'data: 1\n'), []);
  });
});
