import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/db/database';
import { seedFirstStart } from '../../server/db/seed/first-start';
import { hashPassword } from '../../server/identity/password';
import { users } from '../../server/db/schema';
import { E2E_ADMIN, E2E_LOCKED_USER, E2E_SECOND_ADMIN } from './fixtures';
import { freePort } from '../helpers/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The generated password of the demo accounts (server/db/seed/demo.ts). */
    demoPassword: string;
  }
}


// The e2e server always uses its own embedded database.
const withoutDatabaseUrl = ({ DATABASE_URL: _ignored, ...env }: NodeJS.ProcessEnv) => env;

/** Starts the real server (built SPA, embedded provider, PGlite in a temp dir) the way `npm start` does. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'locus-e2e-'));
  // Seed before the server opens the embedded database (PGlite is single-process).
  const database = await openPglite(dataDir);
  await database.migrate();
  const seeded = await seedFirstStart(database.db, { adminEmail: E2E_ADMIN.email, adminPassword: E2E_ADMIN.password, demo: true });
  const [admin] = await database.db.select().from(users);
  const addAdministrator = async (who: { email: string; password: string }, lockedAt?: Date) =>
    database.db.insert(users).values({
      email: who.email,
      firstName: lockedAt ? 'Locked' : 'Second',
      lastName: lockedAt ? 'User' : 'Administrator',
      scope: 'All',
      accessGroupId: admin!.accessGroupId,
      passwordHash: await hashPassword(who.password),
      lockedAt,
    });
  await addAdministrator(E2E_LOCKED_USER, new Date());
  await addAdministrator(E2E_SECOND_ADMIN);
  await database.close();

  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...withoutDatabaseUrl(process.env),
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      // Short-lived tokens: the session renews a third of the lifetime (25 s) before expiry, so within the run.
      ACCESS_TOKEN_TTL: '75',
      LOGIN_RATE_LIMIT: '50',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('demoPassword', seeded.demoUsers!.password);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
