import type { FastifyInstance } from 'fastify';
import fastifyMiddie from '@fastify/middie';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { createAdapterFactory, deleteExpired } from './adapter';
import { interactionRoutes } from './interactions';
import { SET_PASSWORD_PATH } from './password-links';
import { setPasswordRoutes } from './set-password';
import { loadIdentityKeys, SIGNING_ALG } from './keys';
import type { PagePaths } from './pages';
import { createProvider } from './provider';
import type { TokenVerifier } from './token-verifier';
import { createLocalVerifier, createRemoteVerifier, requiringLiveGrant } from './verify-token';

/** Where the embedded provider is mounted in this Fastify app; the issuer is `${PUBLIC_URL}/oidc`. */
export const OIDC_MOUNT = '/oidc';
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Sets up sign-in and returns the verifier of API access tokens. Embedded mode mounts
 * oidc-provider at /oidc (through @fastify/middie, as upstream documents for Fastify) with the
 * sign-in pages beside it; external mode mounts nothing and checks tokens against the configured
 * provider's published keys.
 */
export async function registerIdentity(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock },
): Promise<TokenVerifier> {
  const { db, config, clock } = deps;
  const identity = config.identity;
  if (identity.kind === 'external') {
    return createRemoteVerifier({ issuer: identity.issuer, audience: identity.audience, clock });
  }

  const keys = await loadIdentityKeys(db);
  const paths: PagePaths = { base: new URL(identity.issuer).pathname.replace(/\/+$/, ''), appUrl: config.publicUrl };
  const provider = createProvider({ db, clock, config, identity, keys, paths });
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'identity provider error'));

  await app.register(fastifyMiddie);
  const handle = provider.callback();
  // The provider answers everything under /oidc except its host pages (interaction/, ui/, set-password), which
  // are Fastify routes. Middie strips the mount from req.url and keeps req.originalUrl, from which
  // oidc-provider derives its endpoint URLs.
  const hostPages = ['/interaction/', '/ui/', SET_PASSWORD_PATH];
  app.use(OIDC_MOUNT, (req, res, next) => {
    const path = req.url ?? '/';
    if (hostPages.some((prefix) => path.startsWith(prefix))) return next();
    handle(req, res);
  });
  await app.register(interactionRoutes, { provider, db, clock, paths, mount: OIDC_MOUNT, loginRateLimit: identity.loginRateLimit });
  await app.register(setPasswordRoutes, { db, clock, paths, mount: OIDC_MOUNT });

  // Expired codes, sessions and tokens are absent to the adapter already; this only reclaims space.
  await deleteExpired(db, clock);
  const sweep = setInterval(() => {
    deleteExpired(db, clock).catch((err: unknown) => app.log.warn({ err }, 'could not delete expired identity records'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  const grants = createAdapterFactory(db, clock)('Grant');
  return requiringLiveGrant(
    createLocalVerifier({ issuer: identity.issuer, audience: identity.audience, keys: keys.publicSigning, clock, algorithms: [SIGNING_ALG] }),
    async (grantId) => (await grants.find(grantId)) !== undefined,
  );
}
