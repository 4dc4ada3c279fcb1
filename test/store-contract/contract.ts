/**
 * The one contract every store engine (`Store`, src/store/types.ts) passes (STYLE.md point 5):
 * each engine's test file calls {@link runStoreContract} with a way to open a fresh, migrated store
 * of that engine.
 */
import { describe } from 'node:test';
import { appendContract } from './appends.contract.js';
import { catalogContract } from './catalog.contract.js';
import { clientContract } from './clients.contract.js';
import { feedContract } from './feed.contract.js';
import type { OpenFixture } from './fixture.js';
import { idempotencyContract } from './idempotency.contract.js';
import { logContract } from './log.contract.js';
import { prescriptionContract } from './prescriptions.contract.js';

export type { OpenFixture, StoreFixture } from './fixture.js';

/** Registers the whole store contract for the engine `name`; `open` is called once per test. */
export function runStoreContract(name: string, open: OpenFixture): void {
  describe(`${name} store contract`, () => {
    describe('prescriptions and events', () => prescriptionContract(open));
    describe('appends', () => appendContract(open));
    describe('idempotency', () => idempotencyContract(open));
    describe('clients and tokens', () => clientContract(open));
    describe('event feed', () => feedContract(open));
    describe('product catalogue', () => catalogContract(open));
    describe('transparency log', () => logContract(open));
  });
}
