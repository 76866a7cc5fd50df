import { z } from 'zod';

/**
 * Configuration, read once from the environment at start and validated; handlers never read
 * process.env. Each variable is documented beside its default.
 */
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
    /** Lifetime of access tokens issued by the embedded provider, in seconds. */
    ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86_400).default(900),
    /** Failed sign-ins allowed per account and address per 15 minutes before further tries are refused. */
    LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** SMTP server for e-mail (nodemailer URL, e.g. smtps://user:pass@mail.example.org). Unset: e-mails stay in the outbox, readable in the app. */
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
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
  identity:
    | { kind: 'embedded'; issuer: string; clientId: string; audience: string; accessTokenTtl: number; loginRateLimit: number }
    | { kind: 'external'; issuer: string; clientId: string; audience: string };
  admin: { email: string | undefined; password: string | undefined };
  demo: boolean;
  logLevel: string;
  /** SMTP delivery; smtpUrl undefined keeps e-mails in the outbox (embedded mode). */
  mail: { smtpUrl: string | undefined; from: string };
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
  };
}
