import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { Clock } from '../../server/clock';
import type { Database } from '../../server/db/database';
import { Unauthorized } from '../../server/http/errors';
import type { TokenVerifier, VerifiedToken } from '../../server/identity/token-verifier';
import { freshPglite } from './database';

export const testConfig = (env: Record<string, string> = {}): Config =>
  loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'silent', ...env });

/**
 * Route tests that are not about token cryptography use opaque test tokens ("t1", "t2", …) that
 * this verifier maps to claims; tests/unit/server/identity covers real signed tokens.
 */
export class FakeVerifier implements TokenVerifier {
  private readonly tokens = new Map<string, VerifiedToken>();
  private next = 0;

  issue(subject: string, opts: Partial<VerifiedToken> = {}): string {
    const token = `t${++this.next}`;
    this.tokens.set(token, { subject, issuedAt: new Date(), scopes: ['openid', 'access'], ...opts });
    return token;
  }

  async verify(token: string): Promise<VerifiedToken> {
    const found = this.tokens.get(token);
    if (!found) throw new Unauthorized('The access token is invalid');
    return found;
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  verifier: FakeVerifier;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: { database?: Database; clock?: Clock; spaRoot?: string; config?: Config; redirectToPublicUrl?: boolean; wakeUploadSender?: boolean } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await freshPglite());
  const verifier = new FakeVerifier();
  const app = await buildApp({
    database,
    config: opts.config ?? testConfig(),
    verifier,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.spaRoot ? { spaRoot: opts.spaRoot } : {}),
    // Injected requests carry Host localhost:80, not PUBLIC_URL's; tests/unit/server/http/canonical-host.test.ts covers the redirect.
    redirectToPublicUrl: opts.redirectToPublicUrl ?? false,
    ...(opts.wakeUploadSender === false ? { wakeUploadSender: false } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    verifier,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
