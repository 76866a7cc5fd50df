import type { z } from 'zod';
import type { AccessToken, CreateAccessTokenBody, CreatedAccessToken } from '../../core/schemas/access-tokens';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

export type NewAccessToken = z.infer<typeof CreateAccessTokenBody>;
export type CreatedToken = z.infer<typeof CreatedAccessToken>;

/** The signed-in user's personal access tokens (issue 18): list (newest first), create (the token is in that answer only), revoke. */
export function accessTokensApi(api: ApiClient) {
  return {
    list: async (): Promise<AccessToken[]> => (await unwrap(api.GET('/api/me/access-tokens'))).items,
    create: (body: NewAccessToken): Promise<CreatedToken> => unwrap(api.POST('/api/me/access-tokens', { body })),
    revoke: (id: string): Promise<AccessToken> => unwrap(api.DELETE('/api/me/access-tokens/{id}', { params: { path: { id } } })),
  };
}

export type AccessTokenCalls = ReturnType<typeof accessTokensApi>;

export type AccessTokenStatus = 'Active' | 'Revoked' | 'Expired';

/** Revoked wins over Expired: a revoked token says so even after its date has passed. */
export function tokenStatus(token: Pick<AccessToken, 'revokedAt' | 'expiresAt'>, now: Date = new Date()): AccessTokenStatus {
  if (token.revokedAt) return 'Revoked';
  return new Date(token.expiresAt).getTime() <= now.getTime() ? 'Expired' : 'Active';
}

/** Newest first (the server already sends them so; kept here so a replaced list stays in order). */
export const newestFirst = (tokens: readonly AccessToken[]): AccessToken[] => [...tokens].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** The curl line a script starts from: the organization's hits with the token. */
export const curlExample = (token: string, origin: string, orgId: string): string =>
  `curl -H "Authorization: Bearer ${token}" ${origin}/api/organizations/${encodeURIComponent(orgId)}/hits`;
