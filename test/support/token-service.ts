/**
 * Test support: the token service over a SQLite store in memory, with a pepper of its own, a clock
 * the test moves, and the clients the token service tests register.
 */
import { randomBytes } from 'node:crypto';
import type { AddClientInput } from '../../src/auth/client-input.js';
import { Pepper } from '../../src/auth/pepper.js';
import { TokenService } from '../../src/auth/token-service.js';
import { ErxError } from '../../src/errors.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ClientRow, Store } from '../../src/store/types.js';

/** The clock's starting time, in milliseconds. */
export const START = Date.UTC(2024, 7, 16, 13, 12, 12, 345);

/** A pharmacy registered with a given secret. */
export const PHARMACY: AddClientInput = {
  clientId: 'pharma1',
  secret: 'pharmacy-secret-1',
  role: 'pharmacist',
  name: 'Apotheke am Platz',
  description: 'Pharmacy software of Apotheke am Platz',
  sub: 'HIN|pharma1',
};

/** A practice registered without a secret (erx generates one) unless a test gives one. */
export const PRACTICE: AddClientInput = {
  clientId: 'doc1',
  role: 'prescriber',
  name: 'Dr. Anna Muster',
  sub: 'HIN|doc1',
};

/** The credentials {@link TokenServiceFixture.addClientsWithToken} gives {@link PRACTICE}. */
export const AS_PRACTICE = { clientId: 'doc1', clientSecret: 'practice-secret-1' };

/** A client row as the store holds it, with a placeholder hash. */
export function clientRow(clientId: string): ClientRow {
  return {
    clientId,
    secretHash: 'none',
    role: 'pharmacist',
    name: `Apotheke ${clientId}`,
    description: '',
    sub: `HIN|${clientId}`,
    createdAt: START,
  };
}

/** For `assert.rejects`: an {@link ErxError} with this code (and cause code, if given). */
export function isError(code: string, causeCode?: string) {
  return (error: unknown) =>
    error instanceof ErxError &&
    error.code === code &&
    (causeCode === undefined || error.causeCode === causeCode);
}

/** A token service, its store and pepper, and the clock it reads. */
export interface TokenServiceFixture {
  readonly store: Store;
  readonly pepper: Pepper;
  readonly service: TokenService;
  /** The service's current time in milliseconds, starting at {@link START}; tests move it. */
  now: number;
  /** Issues a token to `input`'s client with `secret` and returns the access token. */
  tokenOf(input: AddClientInput, secret: string): Promise<string>;
  /** Registers both clients ({@link AS_PRACTICE} for the practice); returns a pharmacy token. */
  addClientsWithToken(): Promise<string>;
}

/** A fresh token service with tokens living an hour, over an empty SQLite store in memory. */
export function tokenServiceFixture(): TokenServiceFixture {
  const store = openSqliteStore(':memory:');
  const pepper = new Pepper(randomBytes(32));
  const fixture: TokenServiceFixture = {
    store,
    pepper,
    service: new TokenService(store, pepper, {
      now: () => fixture.now,
      tokenLifetimeSeconds: 3600,
    }),
    now: START,
    async tokenOf(input, secret) {
      const issued = await fixture.service.issueToken({
        grantType: 'client_credentials',
        clientId: input.clientId,
        clientSecret: secret,
      });
      return issued.access_token;
    },
    async addClientsWithToken() {
      await fixture.service.addClient(PHARMACY);
      await fixture.service.addClient({ ...PRACTICE, secret: AS_PRACTICE.clientSecret });
      return fixture.tokenOf(PHARMACY, PHARMACY.secret ?? '');
    },
  };
  return fixture;
}
