import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import type Provider from 'oidc-provider';
import { errors, type Interaction } from 'oidc-provider';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { users } from '../db/schema';
import { hashPassword, verifyPassword } from './password';
import { LoginThrottle } from './login-throttle';
import { loginPage, messagePage, STYLESHEET_PATH, type PagePaths } from './pages';

export const INCORRECT_CREDENTIALS = 'The e-mail or password is incorrect.';
export const ACCOUNT_LOCKED = 'This account is locked. Contact your administrator.';
/** Said when the account or the address used up its failures; the wait is until the block ends. */
export function tooManyAttempts(minutes: number): string {
  return `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
export const MISSING_CREDENTIALS = 'Enter your e-mail and password.';
export const INTERACTION_EXPIRED = 'This sign-in request has expired or was already used. Return to Locus and sign in again.';

/** Sign-in form posts allowed per client address per minute, successful or not. */
export const LOGIN_POSTS_PER_MINUTE = 30;

export interface InteractionDeps {
  provider: Provider;
  db: Db;
  clock: Clock;
  paths: PagePaths;
  /** Fastify path the provider is mounted at ("/oidc"). */
  mount: string;
  loginRateLimit: number;
}

// A path, not a URL object: under jsdom (component tests) URL is jsdom's class, which fs refuses.
const stylesheet = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'sign-in.css'), 'utf8');

// Compared against when the e-mail is unknown, so a miss costs as much time as a wrong password.
let dummyHash: Promise<string> | undefined;
const timingDummy = () => (dummyHash ??= hashPassword('locus-timing-equaliser-not-a-password'));

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

const isSessionNotFound = (err: unknown) => err instanceof errors.SessionNotFound;

type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

/**
 * The provider's interaction pages (upstream example/routes/express.js): GET renders the sign-in
 * form for a pending login prompt, POST checks the password and hands the result back to the
 * provider. Consent is finished without a screen: Locus is the only, first-party client.
 */
export async function interactionRoutes(app: FastifyInstance, deps: InteractionDeps): Promise<void> {
  const { provider, db, paths, mount } = deps;
  const throttle = new LoginThrottle(deps.loginRateLimit, deps.clock);

  app.get(`${mount}${STYLESHEET_PATH}`, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(stylesheet),
  );

  /** The pending interaction named by the URL and the interaction cookie, or a page saying it is gone. */
  async function pending(request: UidRequest, reply: FastifyReply): Promise<Interaction | undefined> {
    try {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      if (interaction.uid === request.params.uid) return interaction;
    } catch (err) {
      if (!isSessionNotFound(err)) throw err;
    }
    await sendHtml(reply, 400, messagePage(paths, { title: 'Sign-in expired', message: INTERACTION_EXPIRED }));
    return undefined;
  }

  async function finish(request: UidRequest, reply: FastifyReply, result: Record<string, unknown>, merge: boolean) {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  /** First-party consent: grant exactly what the prompt says is missing, as upstream's confirm route does. */
  async function finishConsent(request: UidRequest, reply: FastifyReply, interaction: Interaction) {
    const { details } = interaction.prompt;
    const accountId = interaction.session?.accountId;
    const clientId = interaction.params.client_id;
    if (!accountId || typeof clientId !== 'string') {
      return sendHtml(reply, 400, messagePage(paths, { title: 'Sign-in expired', message: INTERACTION_EXPIRED }));
    }
    const grant =
      (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId });
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    return finish(request, reply, { consent: interaction.grantId === grantId ? {} : { grantId } }, true);
  }

  await app.register(async (pagesScope) => {
    // Form bodies are parsed here only; the rest of the app speaks JSON.
    await pagesScope.register(fastifyFormbody);

    pagesScope.get<{ Params: { uid: string } }>(`${mount}/interaction/:uid`, { schema: { hide: true } }, async (request, reply) => {
      const interaction = await pending(request, reply);
      if (!interaction) return reply;
      switch (interaction.prompt.name) {
        case 'login':
          return sendHtml(reply, 200, loginPage(paths, { uid: interaction.uid, email: loginHint(interaction) }));
        case 'consent':
          return finishConsent(request, reply, interaction);
        default:
          return sendHtml(reply, 400, messagePage(paths, { title: 'Sign-in error', message: INTERACTION_EXPIRED }));
      }
    });

    pagesScope.post<{ Params: { uid: string }; Body: Record<string, unknown> | undefined }>(
      `${mount}/interaction/:uid/login`,
      // A coarse flood guard per address (each try costs a scrypt hash); failures are counted below.
      { schema: { hide: true }, config: { rateLimit: { max: LOGIN_POSTS_PER_MINUTE, timeWindow: 60_000 } } },
      async (request, reply) => {
        const interaction = await pending(request, reply);
        if (!interaction) return reply;
        if (interaction.prompt.name !== 'login') return reply.redirect(`${paths.base}/interaction/${interaction.uid}`, 303);

        const email = typeof request.body?.email === 'string' ? request.body.email.trim() : '';
        const password = typeof request.body?.password === 'string' ? request.body.password : '';
        const form = (status: number, error: string) => sendHtml(reply, status, loginPage(paths, { uid: interaction.uid, email, error }));
        if (!email || !password) return form(400, MISSING_CREDENTIALS);

        // Checked before the password: a blocked account stays shut to the right password too, until the block ends.
        const blockedUntil = throttle.blockedUntil(email, request.ip);
        if (blockedUntil) {
          const minutes = Math.max(1, Math.ceil((blockedUntil.getTime() - deps.clock.now().getTime()) / 60_000));
          return sendHtml(reply, 429, messagePage(paths, { title: 'Sign-in refused', message: tooManyAttempts(minutes) }));
        }

        const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
        const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await timingDummy()));
        if (!user || !user.passwordHash || !passwordOk) {
          throttle.recordFailure(email, request.ip);
          if (user) {
            await db.update(users).set({ failedSignIns: sql`${users.failedSignIns} + 1` }).where(eq(users.id, user.id));
          }
          request.log.info({ userId: user?.id }, 'sign-in refused: wrong e-mail or password');
          return form(401, INCORRECT_CREDENTIALS);
        }
        // Said only to someone who knows the password, so it reveals nothing to a guesser.
        if (user.lockedAt) return form(403, ACCOUNT_LOCKED);

        throttle.recordSuccess(email);
        if (user.failedSignIns !== 0) await db.update(users).set({ failedSignIns: 0 }).where(eq(users.id, user.id));
        // remember: false keeps the provider session in a browser-session cookie (shared lab machines).
        return finish(request, reply, { login: { accountId: user.id, amr: ['pwd'], remember: false } }, false);
      },
    );
  });
}

/** login_hint prefills the e-mail field when it looks like one. */
function loginHint(interaction: Interaction): string | undefined {
  const hint = interaction.params.login_hint;
  return typeof hint === 'string' && hint.includes('@') && hint.length <= 320 ? hint : undefined;
}
