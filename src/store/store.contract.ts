/**
 * The one contract every {@link Store} engine passes (STYLE.md point 5): each engine's test file
 * calls {@link runStoreContract} with a way to open a fresh, migrated store of that engine.
 */
import { describe } from 'node:test';
import { appendContract } from './contract/appends.contract.js';
import { clientContract } from './contract/clients.contract.js';
import type { OpenFixture } from './contract/fixture.js';
import { idempotencyContract } from './contract/idempotency.contract.js';
import { prescriptionContract } from './contract/prescriptions.contract.js';

export type { OpenFixture, StoreFixture } from './contract/fixture.js';

/** Registers the whole store contract for the engine `name`; `open` is called once per test. */
export function runStoreContract(name: string, open: OpenFixture): void {
  describe(`${name} store contract`, () => {
    describe('prescriptions and events', () => prescriptionContract(open));
    describe('appends', () => appendContract(open));
    describe('idempotency', () => idempotencyContract(open));
    describe('clients and tokens', () => clientContract(open));
  });
}
