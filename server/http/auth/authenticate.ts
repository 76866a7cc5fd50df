import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_SCOPE } from '../../../core/claims';
import type { Db } from '../../db/database';
import type { TokenVerifier } from '../../identity/token-verifier';
import { Unauthorized } from '../errors';
import { findUserForSubject, loadPrincipal, type AuthenticatedUser } from '../../identity/load-principal';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes that need a user add it as a preHandler. */
    user: AuthenticatedUser;
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
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { db: Db; verifier: TokenVerifier; mode: 'embedded' | 'external' },
): void {
  app.decorateRequest('user', null as unknown as AuthenticatedUser);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = await deps.verifier.verify(bearer(request));
    if (!token.scopes.includes(API_SCOPE)) throw new Unauthorized(`The access token lacks the "${API_SCOPE}" scope`);
    const row = await findUserForSubject(deps.db, token, deps.mode);
    if (!row) throw new Unauthorized('No user matches this access token');
    if (row.lockedAt) throw new Unauthorized('This account is locked');
    request.user = await loadPrincipal(deps.db, row);
  });
}
