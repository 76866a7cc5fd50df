import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { fastifyTrustProxy, type Config } from './config';
import type { Clock } from './clock';
import { systemClock } from './clock';
import type { Database } from './db/database';
import { registerIdentity } from './identity';
import type { TokenVerifier } from './identity/token-verifier';
import { registerAuthentication } from './http/auth/authenticate';
import { registerErrorHandler } from './http/errors';
import { UPLOAD_LIMIT_BYTES } from './http/multipart-form';
import { registerSecurityHeaders } from './http/security-headers';
import { registerCanonicalHost } from './http/canonical-host';
import { registerXsrfCheck } from './http/xsrf';
import { healthRoutes } from './http/health/routes';
import { clientConfigRoutes } from './http/client-config/routes';
import { meRoutes } from './http/me/routes';
import { accessTokenRoutes } from './http/me/access-token-routes';
import { networkRoutes } from './http/network';
import { outboxBacklog } from './network/upload-outbox';
import { registerSpa } from './http/spa/routes';
import { guardRoutes } from './http/access';
import { registerAreaRoutes } from './http/area-routes';
import { recordSearchHits } from './search/record-search-hits';
import { startSearchRuntime, type SearchRuntime } from './search/search-runtime';
import { createOrganizationEvents } from './events/organization-events';
import { organizationEventsRoutes } from './http/events/routes';
import { superviseImports } from './imports/profile-jobs';
import { closeWorkerPools } from './jobs/worker-pool';

declare module 'fastify' {
  interface FastifyInstance {
    /** The matcher, its search workers and queue (benchmarks and tests read the index and the pool's state through it). */
    searchRuntime: SearchRuntime;
  }
}

export interface AppDeps {
  database: Database;
  config: Config;
  clock?: Clock;
  /** Replaces the configured provider's verifier (tests that mint their own tokens). */
  verifier?: TokenVerifier;
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built SPA; defaults to build/spa beside the project root. */
  spaRoot?: string;
  /**
   * Redirect requests for any host but PUBLIC_URL's there (server/http/canonical-host.ts); default true.
   * False only in route tests, which inject with Fastify's default Host (localhost:80).
   */
  redirectToPublicUrl?: boolean;
  /**
   * Whether buildApp waits for the matching index to load before it returns; default true (tests see
   * every approved profile indexed). The server passes false: it listens at once, health reports the
   * load, and searches answer 503 until the index is ready.
   */
  waitForMatchIndex?: boolean;
  /**
   * Whether a change that writes an upload outbox entry wakes the sender at once; default true. False only in tests
   * that step the sender themselves (its 30 s round and Deliver now remain).
   */
  wakeUploadSender?: boolean;
}

export { UPLOAD_LIMIT_BYTES };

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The whole application as one Fastify instance that never listens (server.ts does); tests `inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { database, config } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: deps.logger ?? false,
    // X-Forwarded-For is believed only from the configured proxies (TRUST_PROXY): otherwise any client
    // could name its own address and escape the sign-in throttle.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Profile imports and citations arrive as multipart; JSON bodies stay small.
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await registerSecurityHeaders(app, config);
  // Before every other hook and route: a page at another host could not sign in.
  if (deps.redirectToPublicUrl !== false) registerCanonicalHost(app, config.publicUrl);
  await app.register(fastifyCookie);
  // Uploads (population statistics, citations, later profile imports): one file per request;
  // a larger file is refused with 413 before it is read to the end.
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 } });
  // Not global: routes opt in (the sign-in form uses it against password guessing).
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Locus API', version: '1.0.0', description: 'Forensic DNA casework and profile matching' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  registerXsrfCheck(app);

  const verifier = deps.verifier ?? (await registerIdentity(app, { db: database.db, config, clock }));
  // The matcher indexes every approved profile in the background (ARCHITECTURE.md "Matching"); the server
  // does not wait for it, tests do.
  // Open pages hear of hit and search changes as they happen (ARCHITECTURE.md "Heavy work off the request thread").
  const events = createOrganizationEvents((err) => app.log.error({ err }, 'an event stream failed'));
  const search = await startSearchRuntime({ database, clock, record: recordSearchHits(database.db), events, onError: (err, message, details) => app.log.error({ err, ...details }, message), threads: config.searchThreads });
  app.addHook('onClose', () => search.close());
  app.decorate('searchRuntime', search);
  if (deps.waitForMatchIndex !== false) await search.ready;
  // Imports left running by a stopped process are settled (failed, back to preview, or interrupted: resumable).
  const stopImports = superviseImports(database.db, (err) => app.log.error({ err }, 'settling stopped imports failed'));
  app.addHook('onClose', async () => {
    stopImports();
    await closeWorkerPools();
  });
  registerAuthentication(app, { db: database.db, verifier, mode: config.identity.kind, clock });

  await app.register(
    async (api) => {
      guardRoutes(app, api);
      api.get('/openapi.json', { config: { access: { public: true } }, schema: { hide: true } }, async () => app.swagger());
      await api.register(healthRoutes, { db: database.db, kind: database.kind, index: () => search.index, searches: () => search.pool.state, uploads: () => outboxBacklog(database.db, clock) });
      await api.register(clientConfigRoutes, { config });
      await api.register(meRoutes, { db: database.db, clock });
      await api.register(accessTokenRoutes, { db: database.db, clock });
      await api.register(networkRoutes, { db: database.db, clock, config, search, events, wakeSender: deps.wakeUploadSender !== false });
      await registerAreaRoutes(api, { db: database.db, databaseKind: database.kind, config, clock, search, events });
      await api.register(organizationEventsRoutes, { events });
    },
    { prefix: '/api' },
  );

  await registerSpa(app, { root: deps.spaRoot ?? path.join(projectRoot, 'build', 'spa') });
  return app;
}
