import { z } from 'zod';
import { Id } from './common';

/** Longest life a personal access token may be given: a year, after which the user makes a new one. */
export const ACCESS_TOKEN_MAX_DAYS = 365;

export const AccessToken = z
  .object({
    id: Id,
    name: z.string(),
    /** The token's first characters, to tell tokens apart; never enough to use one. */
    prefix: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AccessToken' });
export type AccessToken = z.infer<typeof AccessToken>;

export const CreateAccessTokenBody = z
  .object({
    name: z.string().trim().min(1, 'Give the token a name, e.g. the script or LIMS that uses it').max(100, 'At most 100 characters'),
    expiresInDays: z.number().int('Whole days').min(1, 'At least 1 day').max(ACCESS_TOKEN_MAX_DAYS, `At most ${ACCESS_TOKEN_MAX_DAYS} days`),
  })
  .meta({ id: 'CreateAccessTokenBody' });

/** The new token, shown this once: only its hash is kept. */
export const CreatedAccessToken = AccessToken.extend({ token: z.string() }).meta({ id: 'CreatedAccessToken' });

export const AccessTokenList = z.object({ items: z.array(AccessToken) }).meta({ id: 'AccessTokenList' });
