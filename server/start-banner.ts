import { hostname } from 'node:os';
import path from 'node:path';
import type { Config } from './config';
import { DEFAULT_ADMIN_EMAIL, type FirstStartResult } from './db/seed/first-start';

/** Host names that mean "this computer": a colleague's browser reads them as its own. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * How colleagues reach this server (issue 30): every other address is redirected to PUBLIC_URL, so a
 * PUBLIC_URL of localhost sends a colleague's browser to their own computer. Nothing when PUBLIC_URL is a real name.
 */
export function colleaguesLines(config: Pick<Config, 'publicUrl' | 'port'>, serverName = hostname()): string[] {
  const url = new URL(config.publicUrl);
  if (!LOOPBACK.has(url.hostname)) return [];
  const port = url.port || String(config.port);
  return [
    `Colleagues on other computers: set PUBLIC_URL to this server's real name, or they are redirected to their own localhost:`,
    `  PUBLIC_URL=${url.protocol}//${serverName}:${port} npm start`,
  ];
}

/** What `npm start` prints once listening: the URL, where the data is, how to sign in and how colleagues reach it. */
export function startBanner(config: Config, seeded: FirstStartResult): string {
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${path.resolve(config.dataDir)}`;
  const lines = [``, `Locus is running at ${config.publicUrl}`, `Data: ${where}`];
  if (config.identity.kind === 'external') {
    lines.push(`Sign-in: ${config.identity.issuer}`);
  } else if (seeded.createdAdmin?.generated) {
    lines.push(
      `Sign in as ${seeded.createdAdmin.email} with the password ${seeded.createdAdmin.password}`,
      `  (generated now and shown only this once: keep it, then change it after signing in)`,
    );
  } else if (seeded.createdAdmin) {
    lines.push(`Sign in as ${seeded.createdAdmin.email} with the password set in LOCUS_ADMIN_PASSWORD.`);
  } else {
    lines.push(`Sign in as ${config.admin.email ?? DEFAULT_ADMIN_EMAIL} with the password printed on first start.`);
  }
  if (seeded.demoUsers) {
    lines.push(
      `Demo accounts (demo mode only): ${seeded.demoUsers.emails.join(', ')}`,
      `  password ${seeded.demoUsers.password} (generated now, shown only this once)`,
    );
  }
  lines.push(...colleaguesLines(config));
  return lines.join('\n') + '\n';
}
