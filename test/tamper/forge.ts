/**
 * What an attacker without the service's keys can still compute: canonical bodies with correct
 * hashes and parent hashes, and signatures — copied from other events or made under a root of
 * their own that looks exactly like ours in form.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import {
  Clock,
  canonicalJson,
  formatTimestamp,
  parseEventBody,
  sha256Hex,
} from '../../src/ledger/index.js';
import type { EventBody } from '../../src/ledger/index.js';
import { makeCertificate, x5cEntry } from '../support/ledger/certificates.js';

/** Lowercase hex of `bytes` random bytes (a plausible hash by default). */
export function randomHex(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

/** `text` with the character at `index` replaced by another one of the same class. */
export function flipChar(text: string, index: number): string {
  const c = text[index];
  if (c === undefined) throw new Error(`no character at ${index}`);
  // Stay in the character's class (digit, lowercase hex letter, other) so the edit changes the
  // content, not its shape: a hash must stay lowercase hex to reach the hash check.
  const other = /[0-9]/.test(c)
    ? c === '0'
      ? '1'
      : '0'
    : /[a-f]/.test(c)
      ? c === 'a'
        ? 'b'
        : 'a'
      : c === 'A'
        ? 'B'
        : 'A';
  return text.slice(0, index) + other + text.slice(index + 1);
}

/** Parses a stored body (it must be intact). */
export function bodyOf(text: string): EventBody {
  const parsed = parseEventBody(text);
  if (!parsed.ok) throw new Error(`stored body does not parse: ${parsed.reason}`);
  return parsed.body;
}

/** A body edited as an attacker would: changed, re-canonicalised, its hash recomputed. */
export function rewriteBody(
  text: string,
  edit: (body: EventBody) => void,
): { body: string; hash: string } {
  // The parsed body is shared and frozen: edit a copy.
  const body = structuredClone(bodyOf(text));
  edit(body);
  const canonical = canonicalJson(body);
  return { body: canonical, hash: sha256Hex(canonical) };
}

/** A new forced full dispensation following `parentHash`, in the service's exact form. */
export function forgedDispense(
  reference: string,
  parentHash: string,
  actor: { sub: string; name: string },
): { id: string; body: string; hash: string } {
  const body: EventBody = {
    id: randomUUID(),
    type: 'full_dispense',
    reference,
    event_data: {},
    timestamp: formatTimestamp(new Clock().nanos()),
    actor: actor.sub,
    actor_name: actor.name,
    parent_hash: parentHash,
  };
  const canonical = canonicalJson(body);
  return { id: body.id, body: canonical, hash: sha256Hex(canonical) };
}

/** A JWS over `hash` in the ledger's exact form, but under a root CA the attacker made. */
export async function selfSignedJws(hash: string): Promise<string> {
  const notBefore = new Date(Date.now() - 60 * 60_000);
  const notAfter = new Date(Date.now() + 24 * 60 * 60_000);
  const root = await makeCertificate({
    subject: 'CN=erx ledger root',
    notBefore,
    notAfter,
    ca: true,
    keyUsage: 32 | 64,
  });
  const leaf = await makeCertificate({
    subject: 'CN=erx ledger leaf',
    issuer: root,
    notBefore,
    notAfter,
  });
  return new CompactSign(new TextEncoder().encode(hash))
    .setProtectedHeader({ alg: 'ES384', x5c: [x5cEntry(leaf), x5cEntry(root)] })
    .sign(leaf.privateKey);
}
