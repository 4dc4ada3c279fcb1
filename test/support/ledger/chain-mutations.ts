/**
 * Test support: every single change an attacker with write access to the store could make to a
 * 10-event chain, each with the event and the checks that must catch it.
 */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import type { Signer, SigningKey } from '../../../src/pki/index.js';
import { appendEvent } from '../../../src/ledger/append-event.js';
import { Clock } from '../../../src/ledger/clock.js';
import { canonicalJson } from '../../../src/ledger/canonical-json.js';
import type { ChainCheck } from '../../../src/ledger/chain-failure.js';
import type { LedgerRecord, SignedEvent } from '../../../src/ledger/event.js';
import { EventVerifier } from '../../../src/ledger/event-verifier.js';
import { sha256Hex } from '../../../src/ledger/hash.js';
import { signEventHash } from '../../../src/ledger/sign-event-hash.js';
import { formatTimestamp, parseTimestamp } from '../../../src/ledger/timestamp.js';
import { VerificationMemory } from '../../../src/memory/verification-memory.js';
import { makeCertificate, x5cEntry } from './certificates.js';
import { bodyEdits, bodyOf, cascade, flipHex, head } from './edits.js';
import type { Body } from './edits.js';
import { eventTime, makeChain, memoryPki } from './chain.js';
import { b64url, flipBit, replaceSegment, segmentBytes } from './jws.js';

/** One change to the chain, and where and by which checks it must be caught. */
export interface Mutation {
  name: string;
  events: LedgerRecord[];
  headHash: string;
  index: number;
  checks: readonly ChainCheck[];
}

const CONTENT: readonly ChainCheck[] = ['body', 'hash'];
const FORGED: readonly ChainCheck[] = ['body', 'reference', 'link', 'signature'];
const SIGNATURE: readonly ChainCheck[] = ['signature', 'chain'];

/** The chain that is changed, another chain to take parts from, and the signers of forgeries. */
export interface MutationSubject {
  readonly chain: SignedEvent[];
  readonly other: SignedEvent[];
  readonly verifier: EventVerifier;
  readonly prescriptionId: string;
  readonly realSigner: Signer;
  readonly foreignSigner: Signer;
  readonly impostorSigner: Signer;
}

/** A 10-event chain signed under a root of its own, and what its mutations are made with. */
export async function mutationSubject(): Promise<MutationSubject> {
  const pki = await memoryPki();
  const prescriptionId = randomUUID();
  const chain = await makeChain(pki.signer, { prescriptionId });
  const other = await makeChain(pki.signer, { prescriptionId: randomUUID() });
  const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
  const foreignSigner = (await memoryPki()).signer;
  // A leaf from a look-alike root (same subject name) presented with our real root.
  const start = new Date(Date.now() - 24 * 60 * 60_000);
  const end = new Date(Date.now() + 24 * 60 * 60_000);
  const lookAlike = await makeCertificate({
    subject: pki.root.certificate.subject,
    notBefore: start,
    notAfter: end,
    ca: true,
    keyUsage: 32,
  });
  const leaf = await makeCertificate({
    subject: 'CN=impostor',
    issuer: lookAlike,
    notBefore: start,
    notAfter: end,
  });
  const impostorKey: SigningKey = {
    privateKey: leaf.privateKey,
    x5c: [x5cEntry(leaf), x5cEntry(pki.root)],
    notBefore: start,
    notAfter: end,
  };
  const impostorSigner: Signer = { keyAt: async () => impostorKey };
  return {
    chain,
    other,
    verifier,
    prescriptionId,
    realSigner: pki.signer,
    foreignSigner,
    impostorSigner,
  };
}

/** Every mutation of `subject`'s chain: of each body, of each stored record, of its structure. */
export async function mutationsOf(subject: MutationSubject): Promise<Mutation[]> {
  const { chain, other, prescriptionId, realSigner, foreignSigner, impostorSigner } = subject;
  function bodyMutations(i: number): Mutation[] {
    const mutations: Mutation[] = [];
    for (const [name, edit] of bodyEdits(bodyOf(chain[i]!))) {
      const body = bodyOf(chain[i]!);
      edit(body);
      const text = canonicalJson(body);
      assert.notEqual(text, chain[i]!.body, `edit "${name}" changes nothing`);
      const kept = [...chain];
      kept[i] = { ...chain[i]!, body: text };
      mutations.push({
        name: `#${i} ${name}`,
        events: kept,
        headHash: head(chain),
        index: i,
        checks: CONTENT,
      });
      const rehashed = [...chain];
      rehashed[i] = { ...chain[i]!, body: text, hash: sha256Hex(text) };
      mutations.push({
        name: `#${i} ${name}, hash recomputed`,
        events: rehashed,
        headHash: head(chain),
        index: i,
        checks: FORGED,
      });
      const cascaded = [...rehashed];
      cascade(cascaded, i);
      mutations.push({
        name: `#${i} ${name}, chain and head rewritten`,
        events: cascaded,
        headHash: head(cascaded),
        index: i,
        checks: FORGED,
      });
    }
    return mutations;
  }

  function recordMutations(i: number): Mutation[] {
    const record = chain[i]!;
    const jws = record.signature;
    const header = JSON.parse(Buffer.from(segmentBytes(jws, 0)).toString('utf8')) as Body;
    const signatureLength = segmentBytes(jws, 2).length;
    const otherJws = chain[(i + 1) % chain.length]!.signature;
    const signatures: Array<[string, string]> = [
      [
        'header alg ES256',
        replaceSegment(jws, 0, b64url(JSON.stringify({ ...header, alg: 'ES256' }))),
      ],
      ['header kid added', replaceSegment(jws, 0, b64url(JSON.stringify({ ...header, kid: 'k' })))],
      [
        'header x5c reversed',
        replaceSegment(
          jws,
          0,
          b64url(JSON.stringify({ alg: 'ES384', x5c: [...(header.x5c as string[])].reverse() })),
        ),
      ],
      ['header bit flipped', flipBit(jws, 0, 3, 0)],
      ['header last bit flipped', flipBit(jws, 0, segmentBytes(jws, 0).length - 3, 1)],
      ['payload bit flipped', flipBit(jws, 1, 0, 0)],
      ['payload of another event', replaceSegment(jws, 1, otherJws.split('.')[1]!)],
      ['signature first bit flipped', flipBit(jws, 2, 0, 7)],
      ['signature last bit flipped', flipBit(jws, 2, signatureLength - 1, 0)],
      ['signature truncated', replaceSegment(jws, 2, b64url(segmentBytes(jws, 2).slice(0, -1)))],
      ['signature of another event', replaceSegment(jws, 2, otherJws.split('.')[2]!)],
      ['whole JWS of another event', otherJws],
      ['signature emptied', ''],
    ];
    const mutations: Mutation[] = signatures.map(([name, signature]) => {
      const events = [...chain];
      events[i] = { ...record, signature };
      return { name: `#${i} ${name}`, events, headHash: head(chain), index: i, checks: SIGNATURE };
    });
    const hashChanged = [...chain];
    hashChanged[i] = { ...record, hash: flipHex(record.hash) };
    mutations.push({
      name: `#${i} stored hash changed`,
      events: hashChanged,
      headHash: head(chain),
      index: i,
      checks: ['hash'],
    });
    const idChanged = [...chain];
    idChanged[i] = { ...record, id: randomUUID() };
    mutations.push({
      name: `#${i} stored id changed`,
      events: idChanged,
      headHash: head(chain),
      index: i,
      checks: ['reference'],
    });
    return mutations;
  }

  async function forged(position: number, signer: Signer): Promise<LedgerRecord> {
    const previous = chain[position - 1];
    const fields =
      previous === undefined
        ? { type: 'create' as const, prescription_hash: 'c'.repeat(64) }
        : { type: 'partial_dispense' as const, dispenses: [{ id: '1234567', amount: 5 }] };
    return appendEvent(
      previous,
      {
        ...fields,
        reference: prescriptionId,
        actor: 'HIN|x',
        actor_name: 'X',
        timestamp: eventTime(new Date(Date.now() - 30 * 60_000), position),
      },
      signer,
      new Clock(),
    );
  }

  async function structuralMutations(): Promise<Mutation[]> {
    const n = chain.length;
    const mutations: Mutation[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const events = [...chain];
        [events[i], events[j]] = [events[j]!, events[i]!];
        mutations.push({
          name: `swap #${i} and #${j}`,
          events,
          headHash: head(chain),
          index: i,
          checks: ['link'],
        });
      }
      const deleted = chain.filter((_, k) => k !== i);
      mutations.push(
        i < n - 1
          ? {
              name: `delete #${i}`,
              events: deleted,
              headHash: head(chain),
              index: i,
              checks: ['link'],
            }
          : {
              name: `delete #${i}`,
              events: deleted,
              headHash: head(chain),
              index: i - 1,
              checks: ['head'],
            },
      );
      const duplicated = [...chain.slice(0, i + 1), chain[i]!, ...chain.slice(i + 1)];
      mutations.push({
        name: `duplicate #${i}`,
        events: duplicated,
        headHash: head(chain),
        index: i + 1,
        checks: ['link'],
      });
      const replaced = [...chain];
      replaced[i] = other[i]!;
      mutations.push({
        name: `replay #${i} of another prescription`,
        events: replaced,
        headHash: head(chain),
        index: i,
        checks: ['reference'],
      });
      const replayedInto = [...chain.slice(0, i), other[Math.max(i, 1)]!, ...chain.slice(i)];
      mutations.push({
        name: `insert event of another prescription at #${i}`,
        events: replayedInto,
        headHash: head(chain),
        index: i,
        checks: ['reference'],
      });
      mutations.push({
        name: `truncate to ${i} events`,
        events: chain.slice(0, i),
        headHash: head(chain),
        index: Math.max(i - 1, 0),
        checks: i === 0 ? ['link'] : ['head'],
      });
    }
    for (let p = 0; p <= n; p++) {
      for (const [who, signer, check] of [
        ['foreign root', foreignSigner, 'chain'],
        ['look-alike root', impostorSigner, 'chain'],
      ] as const) {
        const event = await forged(p, signer);
        const events = [...chain.slice(0, p), event, ...chain.slice(p)];
        const headHash = p === n ? event.hash : head(chain);
        mutations.push({
          name: `insert forged event (${who}) at #${p}`,
          events,
          headHash,
          index: p,
          checks: [check],
        });
      }
    }
    // Someone holding a real leaf key re-dates an event before its predecessor and signs it anew.
    for (let i = 1; i < n; i++) {
      const body = bodyOf(chain[i]!);
      const before = parseTimestamp(bodyOf(chain[i - 1]!).timestamp as string).epochNanos - 1n;
      body.timestamp = formatTimestamp(before);
      const text = canonicalJson(body);
      const hash = sha256Hex(text);
      const key = await realSigner.keyAt(parseTimestamp(body.timestamp as string).date);
      const redated = [...chain];
      redated[i] = { ...chain[i]!, body: text, hash, signature: await signEventHash(hash, key) };
      mutations.push({
        name: `#${i} re-dated before #${i - 1} and re-signed by a real leaf`,
        events: redated.slice(0, i + 1),
        headHash: hash,
        index: i,
        checks: ['time'],
      });
      cascade(redated, i);
      mutations.push({
        name: `#${i} re-dated before #${i - 1} and re-signed by a real leaf, chain rewritten`,
        events: redated,
        headHash: head(redated),
        index: i,
        checks: ['time'],
      });
    }
    mutations.push({
      name: 'replay of a whole other chain',
      events: [...other],
      headHash: head(other),
      index: 0,
      checks: ['reference'],
    });
    mutations.push({
      name: 'head changed',
      events: [...chain],
      headHash: flipHex(head(chain)),
      index: n - 1,
      checks: ['head'],
    });
    return mutations;
  }
  const mutations: Mutation[] = [];
  for (let i = 0; i < chain.length; i++) mutations.push(...bodyMutations(i), ...recordMutations(i));
  mutations.push(...(await structuralMutations()));
  return mutations;
}
