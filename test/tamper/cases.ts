/**
 * The table of database tampering: each case edits the rows of a fresh 8-event
 * chain — create, partial, lock, unlock, full, cancel, partial with substitute, forced full — and
 * says where verify and `erx audit verify` must report it. Whatever the audit reports also refuses
 * every change (SPEC.md §10: a chain or signed terms that fail their checks refuse every change).
 * Cases marked `not-detected` are the documented limits of the checks; the table keeps them honest.
 */
import { randomUUID } from 'node:crypto';
import type { ChainCheck, ChainFailureReason } from '../../src/ledger/index.js';
import type { TermsFailure } from '../../src/service/rules/terms.js';
import {
  bodyOf,
  flipChar,
  forgedDispense,
  randomHex,
  rewriteBody,
  selfSignedJws,
} from './forge.js';
import type { RowEditor, StoredEvent } from './rows.js';

/** What a case works on. */
export interface Target {
  readonly rows: RowEditor;
  /** The prescription edited: its chain has {@link CHAIN_LENGTH} events. */
  readonly victim: string;
  /** Its events as stored before the edit. */
  readonly events: readonly StoredEvent[];
  /** Another prescription's intact events (never edited). */
  readonly donor: readonly StoredEvent[];
  /** A prescription with only its create event. */
  readonly spare: string;
  /** The pharmacist a forger would impersonate. */
  readonly pharmacist: { sub: string; name: string };
}

export type Expectation =
  /**
   * Verify: `logs_check_passed` and `valid` false; the audit names this event and check; every
   * change refused.
   */
  | { kind: 'chain'; index: number; check: ChainCheck; reason: ChainFailureReason }
  /**
   * A prescription column: verify says `prescription_hash_check_passed` and `valid` false. A
   * column the signed terms cover (`terms`) also fails the audit's terms check and refuses every
   * change; one they do not cover (the issuer's label, which no rule reads) passes both.
   */
  | { kind: 'record'; terms?: TermsFailure }
  /** Deliberately not detected: verify stays valid, the audit passes, changes are accepted. */
  | { kind: 'not-detected'; why: string };

export interface TamperCase {
  name: string;
  expect: Expectation;
  /** Another prescription the edit breaks too, and where the audit must report it. */
  alsoBroken?: (t: Target) => { id: string; index: number; check: ChainCheck };
  apply(t: Target): Promise<void>;
}

export const CHAIN_LENGTH = 8;
const MID = 3;
const LAST = CHAIN_LENGTH - 1;

function at(t: Target, seq: number): StoredEvent {
  const event = t.events.find((e) => e.seq === seq);
  if (!event) throw new Error(`no event ${seq}`);
  return event;
}

const chain = (index: number, check: ChainCheck, reason: ChainFailureReason): Expectation => ({
  kind: 'chain',
  index,
  check,
  reason,
});

/** Replaces event `seq` by a body, hash and signature of the attacker's making. */
async function overwrite(
  t: Target,
  seq: number,
  row: { body: string; hash: string; signature?: string },
): Promise<void> {
  await t.rows.setEvent(t.victim, seq, 'body', row.body);
  await t.rows.setEvent(t.victim, seq, 'hash', row.hash);
  if (row.signature !== undefined) await t.rows.setEvent(t.victim, seq, 'signature', row.signature);
}

/** Appends `row` after the last event and moves the head to it, as a careful forger would. */
async function appendForged(
  t: Target,
  row: Omit<StoredEvent, 'prescription_id' | 'seq'>,
): Promise<void> {
  await t.rows.insertEvent({ ...row, prescription_id: t.victim, seq: CHAIN_LENGTH });
  await t.rows.setPrescription(t.victim, 'head_hash', row.hash);
}

export const TAMPER_CASES: readonly TamperCase[] = [
  {
    name: 'prescription_id: an event moved to another prescription',
    expect: chain(MID, 'link', 'seq_mismatch'),
    alsoBroken: (t) => ({ id: t.spare, index: 1, check: 'reference' }),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'prescription_id', t.spare),
  },
  {
    name: 'seq: an event moved to the end',
    expect: chain(MID, 'link', 'seq_mismatch'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'seq', 100),
  },
  {
    name: 'seq: the last event renumbered',
    expect: chain(LAST, 'link', 'seq_mismatch'),
    apply: (t) => t.rows.setEvent(t.victim, LAST, 'seq', LAST + 2),
  },
  {
    name: 'id: another event id',
    expect: chain(MID, 'reference', 'wrong_id'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'id', randomUUID()),
  },
  {
    name: 'parent_hash: another hash',
    expect: chain(MID, 'link', 'parent_column_mismatch'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'parent_hash', randomHex()),
  },
  {
    name: 'parent_hash: removed',
    expect: chain(MID, 'link', 'parent_column_mismatch'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'parent_hash', null),
  },
  {
    name: 'body: one character of the actor name',
    expect: chain(MID, 'hash', 'hash_mismatch'),
    apply: (t) => {
      const body = at(t, MID).body;
      const index = body.indexOf('"actor_name":"') + '"actor_name":"'.length;
      return t.rows.setEvent(t.victim, MID, 'body', flipChar(body, index));
    },
  },
  {
    name: 'body: one character of the create event',
    expect: chain(0, 'hash', 'hash_mismatch'),
    apply: (t) => {
      const body = at(t, 0).body;
      const index = body.indexOf('"prescription_hash":"') + '"prescription_hash":"'.length;
      return t.rows.setEvent(t.victim, 0, 'body', flipChar(body, index));
    },
  },
  {
    name: 'body: same content, not canonical (a space)',
    expect: chain(MID, 'body', 'not_canonical'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'body', `{ ${at(t, MID).body.slice(1)}`),
  },
  {
    name: 'body: dispensed amount changed, re-canonicalised, hash recomputed',
    expect: chain(1, 'signature', 'jws_payload'),
    apply: (t) =>
      overwrite(
        t,
        1,
        rewriteBody(at(t, 1).body, (b) => {
          b.dispenses![0]!.amount = 9;
        }),
      ),
  },
  {
    name: 'body: prescription_hash of the create event replaced, hash recomputed',
    expect: chain(0, 'signature', 'jws_payload'),
    apply: (t) =>
      overwrite(
        t,
        0,
        rewriteBody(at(t, 0).body, (b) => {
          b.prescription_hash = randomHex();
        }),
      ),
  },
  {
    name: 'body: last event rewritten, hash and head recomputed',
    expect: chain(LAST, 'signature', 'jws_payload'),
    apply: async (t) => {
      const rewritten = rewriteBody(at(t, LAST).body, (b) => {
        b.actor_name = 'Apotheke Fremd';
      });
      await overwrite(t, LAST, rewritten);
      await t.rows.setPrescription(t.victim, 'head_hash', rewritten.hash);
    },
  },
  {
    name: 'body: event changed, every later hash, parent hash and the head recomputed',
    expect: chain(MID, 'signature', 'jws_payload'),
    apply: async (t) => {
      let previous = rewriteBody(at(t, MID).body, (b) => {
        b.actor_name = 'Apotheke Fremd';
      });
      await overwrite(t, MID, previous);
      for (let seq = MID + 1; seq < CHAIN_LENGTH; seq++) {
        const parent = previous.hash;
        previous = rewriteBody(at(t, seq).body, (b) => {
          b.parent_hash = parent;
        });
        await overwrite(t, seq, previous);
        await t.rows.setEvent(t.victim, seq, 'parent_hash', parent);
      }
      await t.rows.setPrescription(t.victim, 'head_hash', previous.hash);
    },
  },
  {
    name: 'hash: replaced',
    expect: chain(MID, 'hash', 'hash_mismatch'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'hash', randomHex()),
  },
  {
    name: 'signature: one character of the signature',
    expect: chain(MID, 'signature', 'jws_signature'),
    apply: (t) => {
      const jws = at(t, MID).signature;
      return t.rows.setEvent(t.victim, MID, 'signature', flipChar(jws, jws.length - 40));
    },
  },
  {
    name: 'signature: copied from another event of the chain',
    expect: chain(MID, 'signature', 'jws_payload'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'signature', at(t, MID - 1).signature),
  },
  {
    name: 'signature: emptied',
    expect: chain(MID, 'signature', 'jws_format'),
    apply: (t) => t.rows.setEvent(t.victim, MID, 'signature', ''),
  },
  {
    name: 'delete: an event in the middle',
    expect: chain(MID, 'link', 'seq_mismatch'),
    apply: (t) => t.rows.deleteEvent(t.victim, MID),
  },
  {
    name: 'delete: the create event',
    expect: chain(0, 'link', 'seq_mismatch'),
    apply: (t) => t.rows.deleteEvent(t.victim, 0),
  },
  {
    name: 'delete: the last event',
    expect: chain(LAST - 1, 'head', 'head_mismatch'),
    apply: (t) => t.rows.deleteEvent(t.victim, LAST),
  },
  {
    name: 'delete: the last event and move the head back to its predecessor',
    // A valid shorter chain, but the log holds a leaf at the place it no longer has.
    expect: chain(LAST - 1, 'log', 'not_in_log'),
    apply: async (t) => {
      await t.rows.deleteEvent(t.victim, LAST);
      await t.rows.setPrescription(t.victim, 'head_hash', at(t, LAST - 1).hash);
    },
  },
  {
    name: 'reorder: two events swap their seq',
    expect: chain(MID, 'link', 'parent_mismatch'),
    apply: async (t) => {
      await t.rows.setEvent(t.victim, MID, 'seq', -1);
      await t.rows.setEvent(t.victim, MID + 1, 'seq', MID);
      await t.rows.setEvent(t.victim, -1, 'seq', MID + 1);
    },
  },
  {
    name: 'head: another hash',
    expect: chain(LAST, 'head', 'head_mismatch'),
    apply: (t) => t.rows.setPrescription(t.victim, 'head_hash', randomHex()),
  },
  {
    name: 'head: an earlier event',
    expect: chain(LAST, 'head', 'head_mismatch'),
    apply: (t) => t.rows.setPrescription(t.victim, 'head_hash', at(t, LAST - 2).hash),
  },
  {
    name: 'forged event appended (hash and parent right, signature copied, head moved)',
    expect: chain(CHAIN_LENGTH, 'signature', 'jws_payload'),
    apply: (t) => {
      const forged = forgedDispense(t.victim, at(t, LAST).hash, t.pharmacist);
      return appendForged(t, {
        ...forged,
        parent_hash: at(t, LAST).hash,
        signature: at(t, LAST).signature,
      });
    },
  },
  {
    name: 'forged event appended (hash and parent right, self-signed, head moved)',
    expect: chain(CHAIN_LENGTH, 'chain', 'untrusted_root'),
    apply: async (t) => {
      const forged = forgedDispense(t.victim, at(t, LAST).hash, t.pharmacist);
      return appendForged(t, {
        ...forged,
        parent_hash: at(t, LAST).hash,
        signature: await selfSignedJws(forged.hash),
      });
    },
  },
  {
    name: 'forged event in place of the last one (self-signed, head moved)',
    expect: chain(LAST, 'chain', 'untrusted_root'),
    apply: async (t) => {
      const forged = forgedDispense(t.victim, at(t, LAST - 1).hash, t.pharmacist);
      await overwrite(t, LAST, { ...forged, signature: await selfSignedJws(forged.hash) });
      await t.rows.setEvent(t.victim, LAST, 'id', forged.id);
      await t.rows.setPrescription(t.victim, 'head_hash', forged.hash);
    },
  },
  {
    name: 'event of another prescription appended as it is (head moved)',
    expect: chain(CHAIN_LENGTH, 'reference', 'wrong_reference'),
    apply: (t) => {
      // The event id is unique across the store, so only the id column can differ from the copy.
      const copy = t.donor.find((e) => e.seq === 4)!;
      return appendForged(t, { ...copy, id: randomUUID() });
    },
  },
  {
    name: 'event of another prescription re-pointed here (reference, parent, hash recomputed)',
    expect: chain(CHAIN_LENGTH, 'signature', 'jws_payload'),
    apply: (t) => {
      const copy = t.donor.find((e) => e.seq === 4)!;
      const parent = at(t, LAST).hash;
      const moved = rewriteBody(copy.body, (b) => {
        b.reference = t.victim;
        b.parent_hash = parent;
        b.id = randomUUID();
      });
      return appendForged(t, {
        ...moved,
        id: bodyOf(moved.body).id,
        parent_hash: parent,
        signature: copy.signature,
      });
    },
  },
  {
    name: 'prescriptions.issuer: another prescriber shown as the issuer',
    expect: { kind: 'record' },
    apply: (t) => t.rows.setPrescription(t.victim, 'issuer', 'Dr. med. Eva Zweit (HIN|doctor2)'),
  },
  {
    name: 'prescriptions.issued_at: another issue time',
    expect: { kind: 'record', terms: 'terms_signature' },
    apply: async (t) => {
      const row = await t.rows.prescription(t.victim);
      await t.rows.setPrescription(t.victim, 'issued_at', Number(row.issued_at) - 86_400);
    },
  },
  {
    name: 'prescriptions.medicaments: a medicament added',
    expect: { kind: 'record', terms: 'terms_signature' },
    apply: async (t) => {
      const row = await t.rows.prescription(t.victim);
      const list = JSON.parse(String(row.medicaments)) as unknown[];
      list.push({ Id: '7680999999999', IdType: 2 });
      await t.rows.setPrescription(t.victim, 'medicaments', JSON.stringify(list));
    },
  },
  {
    name: 'prescriptions.medicaments: more packages of a medicament',
    expect: { kind: 'record', terms: 'terms_signature' },
    apply: async (t) => {
      const row = await t.rows.prescription(t.victim);
      const list = JSON.parse(String(row.medicaments)) as { NbPack?: number }[];
      list[0]!.NbPack = (list[0]!.NbPack ?? 1) + 1;
      await t.rows.setPrescription(t.victim, 'medicaments', JSON.stringify(list));
    },
  },
  {
    name: 'prescriptions.issuer_actor: another prescriber may revoke',
    expect: { kind: 'record', terms: 'issuer' },
    apply: (t) => t.rows.setPrescription(t.victim, 'issuer_actor', 'HIN|doctor2'),
  },
  {
    name: 'prescriptions.terms: the expiry a year later, signature kept',
    expect: { kind: 'record', terms: 'terms_signature' },
    apply: async (t) => {
      const row = await t.rows.prescription(t.victim);
      const terms = JSON.parse(String(row.terms)) as { expires_at: number };
      terms.expires_at += 365 * 86_400_000;
      await t.rows.setPrescription(t.victim, 'terms', JSON.stringify(terms));
    },
  },
  {
    name: 'prescriptions.terms: removed, as on a row from before terms were signed',
    expect: { kind: 'record', terms: 'terms_missing' },
    apply: (t) => t.rows.setPrescription(t.victim, 'terms', null),
  },
  {
    name: 'prescriptions.terms: the signature of another prescription',
    expect: { kind: 'record', terms: 'terms_signature' },
    apply: async (t) => {
      const other = await t.rows.prescription(t.spare);
      await t.rows.setPrescription(t.victim, 'terms', other.terms);
    },
  },
];
