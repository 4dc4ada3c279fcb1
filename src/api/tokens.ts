/** The embedded token service (SPEC.md §5): client-credentials tokens and the token check (seed §4.3). */
import Type from 'typebox';
import type { Static } from 'typebox';

const clientFields = {
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
};

/** RFC 6749 §4.4.2; the client credentials in the form or as HTTP Basic. */
export const TokenForm = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ description: '`client_credentials`.' })),
    ...clientFields,
  },
  { $id: 'TokenForm' },
);
export type TokenForm = Static<typeof TokenForm>;

/** Seed §4.3: all three fields are needed (a missing one is answered 400 by the service). */
export const TokenInfoForm = Type.Object(
  { token: Type.Optional(Type.String({ description: 'The token to check.' })), ...clientFields },
  { $id: 'TokenInfoForm' },
);
export type TokenInfoForm = Static<typeof TokenInfoForm>;

/** A successful token response (RFC 6749 §5.1). */
export const TokenResult = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Lifetime in seconds.' }),
  },
  { $id: 'TokenResult', description: 'An access token (RFC 6749 §5.1).' },
);
export type TokenResult = Static<typeof TokenResult>;

/** The token information of an active token (seed §2.6 plus `client_id`, `scope`, `sub`). */
export const ActiveTokenInfo = Type.Object(
  {
    active: Type.Literal(true),
    description: Type.String(),
    exp: Type.Integer({ description: 'Expiry, seconds since the epoch.' }),
    expires_in: Type.Integer({ description: 'Remaining lifetime in seconds.' }),
    expires_on: Type.String({ description: 'Expiry date-time in UTC.' }),
    name: Type.String(),
    client_id: Type.String(),
    scope: Type.Enum(['prescriber', 'pharmacist'], { type: 'string', description: 'The role.' }),
    sub: Type.String({ description: 'The actor id events carry.' }),
  },
  { $id: 'ActiveTokenInfo' },
);
export type ActiveTokenInfo = Static<typeof ActiveTokenInfo>;

/** An unknown, expired or otherwise invalid token: exactly `{"active": false}` (seed §2.6). */
export const InactiveTokenInfo = Type.Object(
  { active: Type.Literal(false) },
  { $id: 'InactiveTokenInfo', additionalProperties: false },
);
export type InactiveTokenInfo = Static<typeof InactiveTokenInfo>;

export const TokenInfo = Type.Union([ActiveTokenInfo, InactiveTokenInfo], {
  $id: 'TokenInfo',
  description: 'The token information (seed §2.6); `{"active": false}` for an invalid token.',
});
export type TokenInfo = Static<typeof TokenInfo>;
