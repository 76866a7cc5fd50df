import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../../helpers/database';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const dataDirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  for (const cleanup of cleanups) await cleanup();
});

/** An empty PostgreSQL database of its own (the server migrates and seeds it), dropped after the tests. */
async function emptyPostgres(): Promise<Record<string, string>> {
  const name = `locus_shutdown_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(sql);
    await admin.end();
  };
  await run(`create database ${name}`);
  cleanups.push(() => run(`drop database if exists ${name} with (force)`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

/**
 * Starts server/server.ts as `npm start` does (without the build) and waits for its start log. It
 * listens on a free port (PORT=0); PUBLIC_URL need not reach it, only be printed.
 */
async function startServer(env: Record<string, string>) {
  const publicUrl = 'http://locus.test:8080';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'locus-shutdown-'));
  dataDirs.push(dataDir);
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: projectRoot,
    env: { ...inherited, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: publicUrl, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    // The start log is printed once the server listens.
    if (output.includes('Locus is running at')) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited, publicUrl, output: () => output };
}

describe.each([
  ['PGlite', async () => ({})],
  ['PostgreSQL', emptyPostgres],
])('the server on %s', (_name, database) => {
  it('stops on SIGTERM with exit code 0 within 2 s, and its start log names only PUBLIC_URL', async () => {
    const server = await startServer(await database());
    const started = server.output();
    expect(started).toContain(`Locus is running at ${server.publicUrl}`);
    // Fastify's "Server listening at http://127.0.0.1:…" would invite opening an address that cannot sign in.
    expect(started).not.toMatch(/https?:\/\/(127\.0\.0\.1|\[::1\]|0\.0\.0\.0)/);

    const sent = Date.now();
    server.child.kill('SIGTERM');
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 2_000));
    const code = await Promise.race([server.exited, timeout]);
    if (code === 'timeout') server.child.kill('SIGKILL');
    expect(code, server.output()).toBe(0);
    expect(Date.now() - sent).toBeLessThan(2_000);
  }, 90_000);
});
