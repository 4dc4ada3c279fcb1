/**
 * Test support for signature vectors: one valid create event, leaves of the real root with
 * chosen flaws, and a one-call verification of the event under another signature.
 */
import { randomUUID } from 'node:crypto';
import type { Credential, Pki } from '../../../src/pki/index.js';
import { appendEvent } from '../../../src/ledger/append-event.js';
import { Clock } from '../../../src/ledger/clock.js';
import type { LedgerRecord, SignedEvent } from '../../../src/ledger/event.js';
import { EventVerifier } from '../../../src/ledger/event-verifier.js';
import { sha256Hex } from '../../../src/ledger/hash.js';
import { verifyChain } from '../../../src/ledger/verify-chain.js';
import type { ChainVerification } from '../../../src/ledger/verify-chain.js';
import { makeCertificate, x5cEntry } from './certificates.js';
import type { CertificateSpec } from './certificates.js';
import { memoryPki, timestampAt } from './chain.js';
import { headerText, signCompact } from './jws.js';
import { VerificationMemory } from '../../../src/memory/verification-memory.js';

export const ES384 = { name: 'ECDSA', hash: 'SHA-384' } as const;
export const HOUR = 60 * 60 * 1000;

export interface SignatureFixture {
  pki: Pki;
  /** A valid create event, signed by the real signer ten minutes ago. */
  record: SignedEvent;
  eventAt: Date;
  rootB64: string;
  /** A leaf of the real root valid an hour either side of the event, changed by `spec`. */
  leaf(spec?: Partial<CertificateSpec>): Promise<Credential>;
  /** A JWS over the event hash, header `{alg:ES384, x5c:chain, ...extra}`, signed by `signer`. */
  signedBy(
    signer: Credential,
    chain?: readonly string[],
    extra?: Record<string, unknown>,
  ): Promise<string>;
  /** Verifies the event as a one-event chain carrying `signature`. */
  verifyWith(signature: string): Promise<ChainVerification>;
}

/** Builds the fixture (one PKI, one event). */
export async function signatureFixture(): Promise<SignatureFixture> {
  const pki = await memoryPki();
  const prescriptionId = randomUUID();
  const eventAt = new Date(Date.now() - 10 * 60_000);
  const rootB64 = x5cEntry(pki.root);
  const record = await appendEvent(
    undefined,
    {
      type: 'create',
      reference: prescriptionId,
      actor: 'HIN|drmueller',
      actor_name: 'Dr. Müller',
      prescription_hash: sha256Hex('CHMED16A1x'),
      timestamp: timestampAt(eventAt),
    },
    pki.signer,
    new Clock(),
  );
  return {
    pki,
    record,
    eventAt,
    rootB64,
    leaf: (spec = {}) =>
      makeCertificate({
        subject: 'CN=test leaf',
        issuer: pki.root,
        notBefore: new Date(eventAt.getTime() - HOUR),
        notAfter: new Date(eventAt.getTime() + HOUR),
        ...spec,
      }),
    signedBy: (signer, chain = [x5cEntry(signer), rootB64], extra = {}) =>
      signCompact(headerText(chain, extra), record.hash, signer.privateKey, ES384),
    verifyWith: (signature) => {
      const events: LedgerRecord[] = [{ ...record, signature }];
      const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
      return verifyChain({ prescriptionId, events, headHash: record.hash }, verifier);
    },
  };
}
