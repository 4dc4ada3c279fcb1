/**
 * The token service and token checkers of erx (SPEC.md §2 "token service", §5).
 */
export {
  MAX_TOKEN_LENGTH,
  generateAccessToken,
  storedTokenHash,
  tokenCacheKey,
  tokenIssuedFor,
} from './access-token.js';
export type { TokenBinding } from './access-token.js';
export { authenticateClient } from './authenticate-client.js';
export type { ClientAttempt, ClientAuthentication } from './authenticate-client.js';
export { CachedTokenChecker } from './cached-token-checker.js';
export type { CachedTokenCheckerOptions } from './cached-token-checker.js';
export {
  basicAuthorization,
  parseBasicCredentials,
  pickClientCredentials,
} from './client-credentials.js';
export type { ClientCredentials, PresentedCredentials } from './client-credentials.js';
export { validateClientInput } from './client-input.js';
export type { AddClientInput, ValidClientInput } from './client-input.js';
export { createTokenChecker } from './create-token-checker.js';
export type { TokenCheckerSettings } from './create-token-checker.js';
export {
  FAILURES_PER_ADDRESS,
  FAILURES_PER_CLIENT,
  FAILURE_WINDOW_MS,
  FailureBudget,
} from './failure-budget.js';
export type { BudgetedAttempt, FailureBudgetOptions } from './failure-budget.js';
export { EmbeddedTokenChecker } from './embedded-token-checker.js';
export type { EmbeddedTokenCheckerOptions } from './embedded-token-checker.js';
export { findActiveToken } from './find-active-token.js';
export type { ActiveToken } from './find-active-token.js';
export { HttpTokenChecker } from './http-token-checker.js';
export type { HttpTokenCheckerOptions } from './http-token-checker.js';
export { chooseIntrospectionProtocol, isIntrospectionProtocol } from './introspection-protocol.js';
export type { IntrospectionProtocol } from './introspection-protocol.js';
export { parseBearer } from './parse-bearer.js';
export { profileFromText, profileText } from './prescriber-profile.js';
export type { PracticeAddress, PrescriberProfile } from './prescriber-profile.js';
export { checkProfileInput, isEmptyProfileInput, normaliseZsr } from './profile-input.js';
export type { ProfileInput } from './profile-input.js';
export { MIN_PEPPER_BYTES, Pepper } from './pepper.js';
export type { Principal } from './principal.js';
export { principalFromIntrospection, roleFromScope } from './principal-from-introspection.js';
export { ROLES, isRole } from './role.js';
export { DEFAULT_MAX_WAITING, ScryptPool } from './scrypt-pool.js';
export type { ScryptPoolOptions } from './scrypt-pool.js';
export {
  SecretHashes,
  generateSecret,
  isBoundSecretHash,
  libuvScrypt,
  scryptMaxmem,
} from './secret-hash.js';
export type { ClientIdentity, ScryptJob, ScryptRunner } from './secret-hash.js';
export type { TokenChecker } from './token-checker.js';
export { activeTokenInfo, inactiveTokenInfo } from './token-info.js';
export type { ActiveTokenInfo, InactiveTokenInfo, TokenInfo } from './token-info.js';
export { TokenService } from './token-service.js';
export type {
  AddedClient,
  ClientInfo,
  SecretHashUpgrade,
  TokenInfoRequest,
  TokenRequest,
  TokenResponse,
  TokenServiceOptions,
} from './token-service.js';
