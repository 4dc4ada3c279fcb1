/**
 * The callers of the bench: a prescriber (create) and a pharmacist (verify with transactions,
 * dispense), and the other practices and pharmacies that hold event streams open while the
 * pharmacist dispenses, registered straight in the store like `erx clients add` does, with tokens
 * fetched through the token endpoint like any integrator's.
 */
import { TokenService } from '../../src/auth/index.js';
import { openStore } from '../../src/server/open-store.js';
import { openPepper } from '../../src/server/pepper-key.js';

export interface BenchActor {
  readonly clientId: string;
  readonly name: string;
  readonly sub: string;
}

export const PRESCRIBER: BenchActor = {
  clientId: 'bench-prescriber',
  name: 'Dr. med. Bench Beispiel',
  sub: 'HIN|bench.doctor',
};

export const PHARMACIST: BenchActor = {
  clientId: 'bench-pharmacist',
  name: 'Apotheke Bench',
  sub: 'HIN|bench.pharmacy',
};

/**
 * Subjects besides the two above that hold event streams (`streams-figure.ts`): erx lets one
 * subject hold 5 at once, so 200 streams need 40 subjects. Half are practices and half pharmacies
 * that take no part in the bench's calls: their streams see none of its events.
 */
export const STREAM_SUBJECTS = 38;

/** A client of {@link STREAM_SUBJECTS}, with its generated secret. */
export interface StreamClient extends BenchActor {
  readonly role: 'prescriber' | 'pharmacist';
  readonly secret: string;
}

/** The other subjects' actors: prescribers first, then pharmacies. */
function streamActors(): (BenchActor & { role: StreamClient['role'] })[] {
  return Array.from({ length: STREAM_SUBJECTS }, (_, i) => {
    const role = i < STREAM_SUBJECTS / 2 ? 'prescriber' : 'pharmacist';
    const n = String(i + 1).padStart(2, '0');
    return role === 'prescriber'
      ? {
          clientId: `bench-stream-practice-${n}`,
          name: `Praxis ${n}`,
          sub: `HIN|bench.practice${n}`,
          role,
        }
      : {
          clientId: `bench-stream-pharmacy-${n}`,
          name: `Apotheke ${n}`,
          sub: `HIN|bench.pharmacy${n}`,
          role,
        };
  });
}

/** Client secrets of one data directory. */
export interface Credentials {
  prescriber: string;
  pharmacist: string;
  /** The other subjects that hold streams (absent from a revision's bench before they existed). */
  streamers?: StreamClient[];
}

/** Registers both actors in the SQLite store of `dataDir`; answers their generated secrets. */
export async function registerClients(dataDir: string): Promise<Credentials> {
  const store = await openStore({ dataDir, databaseUrl: undefined });
  try {
    const tokens = new TokenService(store, openPepper({ dataDir, pepper: undefined }));
    const add = async (actor: BenchActor, role: 'prescriber' | 'pharmacist'): Promise<string> => {
      const added = await tokens.addClient({ ...actor, role, description: 'benchmark client' });
      if (added.secret === undefined) throw new Error('no secret generated');
      return added.secret;
    };
    const prescriber = await add(PRESCRIBER, 'prescriber');
    const pharmacist = await add(PHARMACIST, 'pharmacist');
    // Each secret is hashed with scrypt on libuv's pool: a few at a time.
    const streamers = await Promise.all(
      streamActors().map(async ({ role, ...actor }) => ({
        ...actor,
        role,
        secret: await add(actor, role),
      })),
    );
    return { prescriber, pharmacist, streamers };
  } finally {
    await store.close();
  }
}

/** Fetches an access token over HTTP, as a client should: a 503 is retried after `Retry-After`. */
export async function bearerFor(
  baseUrl: string,
  clientId: string,
  secret: string,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${baseUrl}/REST/v1/OAuth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }).toString(),
    });
    if (response.status === 503 && attempt < 5) {
      await response.arrayBuffer();
      const seconds = Number(response.headers.get('retry-after') ?? 1);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (response.status !== 200) {
      throw new Error(`token for ${clientId}: ${response.status} ${await response.text()}`);
    }
    const body = (await response.json()) as { access_token: string };
    return `Bearer acs:${body.access_token}`;
  }
}
