import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { seedFirstStart } from './db/seed/first-start';
import { applySeedUpgrades } from './db/seed/upgrades';
import { startBanner } from './start-banner';

/** Starts Locus: configuration, database and migrations, first-start seed, then listen. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const seeded = await seedFirstStart(database.db, {
    adminEmail: config.admin.email,
    adminPassword: config.admin.password,
    demo: config.demo,
  });
  await applySeedUpgrades(database.db);

  const app = await buildApp({
    database,
    config,
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // Listen at once: the matching index loads in the background (GET /api/health reports it).
    waitForMatchIndex: false,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // In-flight requests finish; a hung one cannot keep the process alive past 10 s.
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    // After the app's own onClose hooks (they run last-registered first): the search runtime must give
    // back its listening connection before the pool can end.
    await database.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Fastify logs every interface it listens on (http://127.0.0.1:8080, the LAN address), but only
  // PUBLIC_URL can sign in (the others are redirected there), so the listen lines stay unlogged.
  await app.ready();
  // A server's first answer paid 60-70 ms of first runs (hooks, the reply's serializer, the database's first
  // statements), more with the index's start-up load beside it: paid here, before anyone waits on it (issue 29).
  await app.inject({ method: 'GET', url: '/api/health' });
  const level = app.log.level;
  app.log.level = 'silent';
  try {
    await app.listen({ port: config.port, host: config.host });
  } finally {
    app.log.level = level;
  }
  console.log(startBanner(config, seeded));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
