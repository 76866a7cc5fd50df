import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Configuration, read once from the environment at start and validated; handlers never read
 * process.env. Each variable is documented beside its default.
 */
/** Names proxy-addr (Fastify's trustProxy) gives to address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUST_PROXY entry: an address, an address/prefix (or /netmask), or a named range. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4;
}

/**
 * TRUST_PROXY: unset trusts no proxy (X-Forwarded-For is ignored, the client address is the peer's);
 * a hop count trusts that many proxies in front; otherwise a comma list of the proxies' addresses or CIDRs.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): number | string[] => {
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must be a hop count or a comma list of addresses or CIDRs${bad.length > 0 ? ` (not ${bad.join(', ')})` : ''}` });
      return z.NEVER;
    }
    return entries;
  });

/**
 * Fastify's trustProxy for Config.trustProxy. A hop count becomes a function: Fastify 5 takes a bare
 * number to mean "trust nobody", since it cannot tell a proxy from a client naming enough hops itself;
 * a hop count is for servers reached only through their proxies (README).
 */
export function fastifyTrustProxy(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /** Port the one process listens on. */
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Interface to bind; 0.0.0.0 reaches the app from other machines. */
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Public base URL of the app (issuer and redirect URIs derive from it). Default http://localhost:PORT. */
    PUBLIC_URL: z.url().optional(),
    /** Where the embedded database and identity keys live. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** PostgreSQL connection string; when unset the embedded PGlite in DATA_DIR is used. */
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
    /** External OpenID provider; all three together replace the embedded provider. */
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_AUDIENCE: z.string().min(1).optional(),
    /** First administrator's credentials, used on the first start only. */
    LOCUS_ADMIN_EMAIL: z.email().optional(),
    LOCUS_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    /** Demo data on first start (a demo organization); refused when NODE_ENV=production. */
    LOCUS_DEMO: bool.optional(),
    /** Proxies whose X-Forwarded-* headers are believed (client address for sign-in throttling, scheme and host): a hop count or addresses/CIDRs. */
    TRUST_PROXY: trustProxy.optional(),
    /** Lifetime of access tokens issued by the embedded provider, in seconds. */
    ACCESS_TOKEN_TTL: z.coerce
      .number()
      .int()
      // The app renews a token shortly before it expires; a shorter lifetime would have it renewing all the time.
      .min(60, 'must be at least 60 seconds (the lifetime of an access token; the app renews it shortly before it expires)')
      .max(86_400, 'must be at most 86400 seconds (one day)')
      .default(900),
    /** Failed sign-ins allowed per account per 15 minutes before further tries are refused (an address may fail five times as often). */
    LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** SMTP server for e-mail (nodemailer URL, e.g. smtps://user:pass@mail.example.org). Unset: e-mails stay in the outbox, readable in the app. */
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
    /** Worker threads the database searches run on (ARCHITECTURE.md "Using every core"); default one per core. */
    SEARCH_THREADS: z.coerce.number().int().min(1, 'must be at least 1').max(256).optional(),
    /** Sender address of e-mails sent through SMTP_URL. */
    MAIL_FROM: z.string().min(3).default('Locus <locus@localhost>'),
  })
  .superRefine((env, ctx) => {
    const external = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_AUDIENCE].filter((v) => v !== undefined);
    if (external.length > 0 && external.length < 3) {
      for (const key of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_AUDIENCE'] as const) {
        if (env[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when an external provider is configured' });
      }
    }
    if (env.NODE_ENV === 'production' && env.LOCUS_DEMO === true) {
      ctx.addIssue({ code: 'custom', path: ['LOCUS_DEMO'], message: 'demo mode is refused when NODE_ENV=production' });
    }
  });

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Fastify's trustProxy: false trusts no proxy, a number that many hops, a list those addresses. */
  trustProxy: false | number | string[];
  identity:
    | { kind: 'embedded'; issuer: string; clientId: string; audience: string; accessTokenTtl: number; loginRateLimit: number }
    | { kind: 'external'; issuer: string; clientId: string; audience: string };
  admin: { email: string | undefined; password: string | undefined };
  demo: boolean;
  logLevel: string;
  /** SMTP delivery; smtpUrl undefined keeps e-mails in the outbox (embedded mode). */
  mail: { smtpUrl: string | undefined; from: string };
  /** Search worker threads; undefined: one per core. */
  searchThreads?: number | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The embedded provider's public client id (a browser client: PKCE, no secret). */
export const EMBEDDED_CLIENT_ID = 'locus-spa';
/** Audience (resource indicator) of the API's access tokens under the embedded provider. */
export const EMBEDDED_AUDIENCE = 'urn:locus:api';

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(environment);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    // A hop count of 0 trusts nobody, as unset does.
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY === 0 ? false : e.TRUST_PROXY,
    identity:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_AUDIENCE
        ? { kind: 'external', issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, audience: e.OIDC_AUDIENCE }
        : {
            kind: 'embedded',
            issuer: `${publicUrl}/oidc`,
            clientId: EMBEDDED_CLIENT_ID,
            audience: EMBEDDED_AUDIENCE,
            accessTokenTtl: e.ACCESS_TOKEN_TTL,
            loginRateLimit: e.LOGIN_RATE_LIMIT,
          },
    admin: { email: e.LOCUS_ADMIN_EMAIL, password: e.LOCUS_ADMIN_PASSWORD },
    demo: e.LOCUS_DEMO ?? e.NODE_ENV !== 'production',
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    searchThreads: e.SEARCH_THREADS,
  };
}
