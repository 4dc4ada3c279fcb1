/**
 * The embedded OAuth 2.0 token service (SPEC.md §2 "token service", §5): client registry,
 * client-credentials issuing (`POST /REST/v1/OAuth/token`) and the seed's token check
 * (`POST /REST/v1/OAuth/GetTokenInfo`, seed §4.3). Knows nothing of HTTP.
 */
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';
import type { ClientRow, Store } from '../store/types.js';
import { generateAccessToken, storedTokenHash } from './access-token.js';
import { authenticateClient } from './authenticate-client.js';
import type { ClientAuthentication } from './authenticate-client.js';
import { validateClientInput } from './client-input.js';
import type { AddClientInput } from './client-input.js';
import type { FailureBudget } from './failure-budget.js';
import { findActiveToken } from './find-active-token.js';
import type { Pepper } from './pepper.js';
import { profileFromText, profileText } from './prescriber-profile.js';
import type { PrescriberProfile } from './prescriber-profile.js';
import { checkProfileInput } from './profile-input.js';
import type { ProfileInput } from './profile-input.js';
import { subsOfBothRoles } from './shared-subs.js';
import { SecretHashes, generateSecret, isBoundSecretHash, libuvScrypt } from './secret-hash.js';
import type { ScryptRunner } from './secret-hash.js';
import { activeTokenInfo, inactiveTokenInfo } from './token-info.js';
import type { TokenInfo } from './token-info.js';
import { AlreadyExists } from '../store/races.js';

/** A registered client as shown to operators: never its secret hash; its profile read. */
export type ClientInfo = Omit<ClientRow, 'secretHash' | 'profile'> & {
  profile?: PrescriberProfile;
};

/** The result of a registration; `secret` only when it was generated (shown once). */
export interface AddedClient {
  client: ClientInfo;
  secret?: string;
}

/** A token request (RFC 6749 §4.4.2), credentials already taken from the form or Basic. */
export interface TokenRequest {
  grantType: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The caller's address, for the failure budget (undefined: a call from inside erx). */
  address?: string;
}

/** A successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  /** Lifetime in seconds. */
  expires_in: number;
}

/** What {@link TokenService.upgradeSecretHashes} did. */
export interface SecretHashUpgrade {
  /** Clients whose hash was bound now. */
  upgraded: number;
  /** Clients whose hash is in no form erx reads: they cannot authenticate until registered again. */
  unreadable: string[];
}

/** A token check (seed §4.3): all three form fields are required. */
export interface TokenInfoRequest {
  token: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The caller's address, for the failure budget (undefined: a call from inside erx). */
  address?: string;
}

export interface TokenServiceOptions {
  /** Lifetime of issued tokens in seconds (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Clock, unix ms (tests freeze it). */
  now?: () => number;
  /**
   * Where secrets are hashed: the service passes its own thread pool (`./scrypt-pool.ts`); the
   * default, libuv's pool, is for tools and tests.
   */
  scrypt?: ScryptRunner;
  /** Failures allowed per address and client id; absent: none counted (tools, tests). */
  budget?: FailureBudget;
  /** The scrypt cost of the secret hashes it writes (`SecretHashes`; default 2^15). */
  secretCost?: number;
}

function toInfo(row: ClientRow): ClientInfo {
  const profile = profileFromText(row.profile);
  return {
    clientId: row.clientId,
    role: row.role,
    name: row.name,
    description: row.description,
    sub: row.sub,
    createdAt: row.createdAt,
    ...(profile === undefined ? {} : { profile }),
  };
}

function missing(field: string): ErxError {
  return new ErxError('bad_request', `The form field ${field} is required.`, {
    causeCode: 'invalid_request',
  });
}

/**
 * Client registry, token issuing and token check over one {@link Store}, with hashes bound to one
 * {@link Pepper} (the same one for every instance and tool over that store).
 */
export class TokenService {
  readonly #store: Store;
  readonly #pepper: Pepper;
  readonly #lifetime: number;
  readonly #now: () => number;
  readonly #secrets: SecretHashes;
  readonly #auth: ClientAuthentication;

  constructor(store: Store, pepper: Pepper, options: TokenServiceOptions = {}) {
    const lifetime = options.tokenLifetimeSeconds ?? 3600;
    if (!Number.isInteger(lifetime) || lifetime < 1) {
      throw new RangeError('tokenLifetimeSeconds must be a positive whole number');
    }
    this.#store = store;
    this.#pepper = pepper;
    this.#lifetime = lifetime;
    this.#now = options.now ?? Date.now;
    this.#secrets = new SecretHashes(pepper, options.scrypt ?? libuvScrypt, options.secretCost);
    this.#auth = { store, secrets: this.#secrets, budget: options.budget };
  }

  /**
   * Registers a client; generates its secret when none is given. `conflict` if the id exists or
   * a client of the other role holds its `sub`.
   */
  async addClient(input: AddClientInput): Promise<AddedClient> {
    const valid = validateClientInput(input);
    // One sub has one role (./shared-subs.ts); refused before anything is hashed or stored.
    const shared = subsOfBothRoles([...(await this.#store.clients.list()), valid]);
    const other = shared.find((s) => s.sub === valid.sub);
    if (other !== undefined) {
      const holders = valid.role === 'prescriber' ? other.pharmacists : other.prescribers;
      throw new ErxError(
        'conflict',
        `The sub ${valid.sub} is held by the ${valid.role === 'prescriber' ? 'pharmacist' : 'prescriber'} client ${holders.join(', ')}: one sub has one role.`,
        { causeCode: 'sub_has_other_role' },
      );
    }
    const secret = valid.secret ?? generateSecret();
    const row: ClientRow = {
      clientId: valid.clientId,
      // Bound to id, role, sub and name only: the profile changes without touching the secret.
      secretHash: await this.#secrets.hash(secret, valid),
      role: valid.role,
      name: valid.name,
      description: valid.description,
      sub: valid.sub,
      createdAt: this.#now(),
      ...(valid.profile === undefined ? {} : { profile: profileText(valid.profile) }),
    };
    try {
      await this.#store.clients.add(row);
    } catch (error) {
      if (error instanceof AlreadyExists) {
        throw new ErxError('conflict', 'A client with this id exists already.');
      }
      throw error;
    }
    return valid.secret === undefined ? { client: toInfo(row), secret } : { client: toInfo(row) };
  }

  /** Every registered client, without secret hashes. */
  async listClients(): Promise<ClientInfo[]> {
    return (await this.#store.clients.list()).map(toInfo);
  }

  /**
   * Binds every client secret hash of the older form (`scrypt$…`, not bound to the pepper) to the
   * pepper, without the secrets; until then such a client cannot authenticate. It blesses every
   * such row, whoever wrote it: run it once, when the pepper comes in (the runtime does,
   * `server/bind-secret-hashes.ts`). Safe from several instances at once: a hash changed
   * meanwhile is left to whoever changed it.
   */
  async upgradeSecretHashes(): Promise<SecretHashUpgrade> {
    const result: SecretHashUpgrade = { upgraded: 0, unreadable: [] };
    for (const client of await this.#store.clients.list()) {
      if (isBoundSecretHash(client.secretHash)) continue;
      const bound = this.#secrets.upgrade(client.secretHash, client);
      if (bound === undefined) result.unreadable.push(client.clientId);
      else if (
        await this.#store.clients.replaceSecretHash(client.clientId, client.secretHash, bound)
      )
        result.upgraded++;
    }
    return result;
  }

  /**
   * Sets, updates (the fields `input` names, over the stored profile) or, with null, removes the
   * profile of a prescriber client. `not_found` for an unknown client; `bad_request` for a
   * pharmacist client or a profile with violations (every one listed).
   */
  async setClientProfile(clientId: string, input: ProfileInput | null): Promise<ClientInfo> {
    const row = await this.#store.clients.get(clientId);
    if (row === undefined) throw new ErxError('not_found', `There is no client ${clientId}.`);
    if (row.role !== 'prescriber') {
      throw new ErxError(
        'bad_request',
        `Only a prescriber client has a profile; ${clientId} is a ${row.role} client.`,
        { causeCode: 'not_a_prescriber' },
      );
    }
    const violations: Violation[] = [];
    const profile =
      input === null
        ? undefined
        : checkProfileInput(input, profileFromText(row.profile), '/profile', violations);
    if (violations.length > 0) {
      throw new ErxError('bad_request', 'The profile is invalid.', { violations });
    }
    const stored = profile === undefined ? null : profileText(profile);
    if (!(await this.#store.clients.setProfile(clientId, stored))) {
      throw new ErxError('not_found', `There is no client ${clientId}.`);
    }
    return toInfo({ ...row, profile: stored ?? undefined });
  }

  /** The profile of `clientId`, when it is a client with one (the desk's prefill). */
  async clientProfile(clientId: string): Promise<PrescriberProfile | undefined> {
    return profileFromText((await this.#store.clients.get(clientId))?.profile);
  }

  /** Removes a client and, through the store, its tokens; false when there was no such client. */
  async removeClient(clientId: string): Promise<boolean> {
    return this.#store.clients.remove(clientId);
  }

  /** Issues a token for the client-credentials grant (RFC 6749 §4.4). */
  async issueToken(request: TokenRequest): Promise<TokenResponse> {
    if (!request.grantType) throw missing('grant_type');
    if (request.grantType !== 'client_credentials') {
      throw new ErxError('bad_request', 'Only grant_type=client_credentials is supported.', {
        causeCode: 'unsupported_grant_type',
      });
    }
    const client = await authenticateClient(this.#auth, request);
    const now = this.#now();
    // Whole-second expiry, so `exp` in the token check is exact.
    const expiresAt = (Math.floor(now / 1000) + this.#lifetime) * 1000;
    const token = generateAccessToken(this.#pepper, { client, expiresAt });
    await this.#store.clients.insertToken({
      tokenHash: storedTokenHash(this.#pepper, token),
      clientId: client.clientId,
      expiresAt,
      createdAt: now,
    });
    return { access_token: token, token_type: 'Bearer', expires_in: this.#lifetime };
  }

  /**
   * The token check of seed §4.3: missing field ⇒ `bad_request`; bad client credentials ⇒
   * `unauthorized`; unknown or expired token ⇒ `{active: false}`; else the seed §2.6 fields.
   */
  async tokenInfo(request: TokenInfoRequest): Promise<TokenInfo> {
    if (!request.token) throw missing('token');
    if (!request.clientId) throw missing('client_id');
    if (!request.clientSecret) throw missing('client_secret');
    await authenticateClient(this.#auth, request);
    const now = this.#now();
    const found = await findActiveToken(this.#store, this.#pepper, request.token, now);
    return found ? activeTokenInfo(found.client, found.token, now) : inactiveTokenInfo();
  }

  /** Deletes expired tokens; returns how many (for a periodic clean-up). */
  async purgeExpiredTokens(): Promise<number> {
    return this.#store.clients.purgeTokens(this.#now());
  }
}
