import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_SCOPE } from '../../../core/claims';
import type { Db } from '../../db/database';
import type { TokenVerifier } from '../../identity/token-verifier';
import { Unauthorized } from '../errors';
import { findUserForSubject, loadPrincipal, type AuthenticatedUser } from '../../identity/load-principal';
import { findAccessTokenUser, isAccessToken } from '../../identity/access-tokens';
import type { Clock } from '../../clock';
import { loadServicePrincipal } from '../../identity/service-principal';
import { SERVICE_CLIENT_PREFIX } from '../../identity/service-clients';
import { isClientCredentials } from '../../identity/verify-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes that need a user add it as a preHandler. */
    user: AuthenticatedUser;
    /** Whether the caller signed in with a personal access token rather than the provider's access token. */
    viaAccessToken: boolean;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw new Unauthorized('A bearer access token is required');
  return match[1];
}

/**
 * Verifies the bearer token, then reads the user from this database on every request: a user
 * deleted or locked after the token was issued is refused (401), and role changes apply at once.
 * A personal access token (issue 18) is looked up by its hash instead; it acts with its user's
 * permissions as they are now.
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { db: Db; verifier: TokenVerifier; mode: 'embedded' | 'external'; clock: Clock },
): void {
  app.decorateRequest('user', null as unknown as AuthenticatedUser);
  app.decorateRequest('viaAccessToken', false);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const presented = bearer(request);
    if (isAccessToken(presented)) {
      const found = await findAccessTokenUser(deps.db, deps.clock, presented);
      if ('refused' in found) throw new Unauthorized(found.refused);
      if (found.user.lockedAt) throw new Unauthorized('This account is locked');
      request.user = await loadPrincipal(deps.db, found.user);
      request.viaAccessToken = true;
      return;
    }
    const token = await deps.verifier.verify(presented);
    if (!token.scopes.includes(API_SCOPE)) throw new Unauthorized(`The access token lacks the "${API_SCOPE}" scope`);
    // A registered service client's token (issue 32), from the embedded provider or an external one; looked up on
    // every call so a revoked client is refused at once. The embedded provider's own clients all carry the prefix.
    const serviceClient = token.clientId && (deps.mode === 'external' || token.clientId.startsWith(SERVICE_CLIENT_PREFIX));
    const service = serviceClient ? await loadServicePrincipal(deps.db, token.clientId!) : undefined;
    if (service && 'refused' in service) throw new Unauthorized(service.refused);
    if (service) {
      request.user = service;
      return;
    }
    if (isClientCredentials(token)) throw new Unauthorized('No service client matches this access token');
    const row = await findUserForSubject(deps.db, token, deps.mode);
    if (!row) throw new Unauthorized('No user matches this access token');
    if (row.lockedAt) throw new Unauthorized('This account is locked');
    request.user = await loadPrincipal(deps.db, row);
  });
}
