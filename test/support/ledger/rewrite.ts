/**
 * Test support: what an insider holding erx's own keys can do to a stored chain without erx —
 * change one event's body, then recompute its hash and every later event's link and hash, and
 * sign them all again with a real leaf key, so that every check erx makes of a chain alone passes.
 */
import { canonicalJson } from '../../../src/ledger/canonical-json.js';
import { sha256Hex } from '../../../src/ledger/hash.js';
import { signEventHash } from '../../../src/ledger/sign-event-hash.js';
import type { SigningKey } from '../../../src/pki/index.js';
import type { RowEditor } from '../../tamper/rows.js';

/**
 * Rewrites the body of event `seq` of `prescriptionId` with `change`, relinks, rehashes and
 * re-signs it and every later event with `key`, and moves the head; the new hashes by seq.
 */
export async function rewriteChain(
  rows: RowEditor,
  prescriptionId: string,
  seq: number,
  change: (body: Record<string, unknown>) => void,
  key: SigningKey,
): Promise<string[]> {
  const events = await rows.events(prescriptionId);
  let parent = events[seq - 1]?.hash ?? null;
  const hashes: string[] = events.slice(0, seq).map((e) => e.hash);
  for (const event of events.slice(seq)) {
    const body = JSON.parse(event.body) as Record<string, unknown>;
    if (event.seq === seq) change(body);
    if (parent !== null) body.parent_hash = parent;
    const text = canonicalJson(body);
    const hash = sha256Hex(text);
    await rows.setEvent(prescriptionId, event.seq, 'body', text);
    await rows.setEvent(prescriptionId, event.seq, 'hash', hash);
    await rows.setEvent(prescriptionId, event.seq, 'parent_hash', parent);
    await rows.setEvent(prescriptionId, event.seq, 'signature', await signEventHash(hash, key));
    hashes.push(hash);
    parent = hash;
  }
  await rows.setPrescription(prescriptionId, 'head_hash', parent);
  return hashes;
}
