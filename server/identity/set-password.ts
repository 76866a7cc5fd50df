import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import { NewPassword, PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from '../../core/schemas/users';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { escapeHtml, layout, messagePage, type PagePaths } from './pages';
import { hashPassword } from './password';
import { passwordLinkAccount, SET_PASSWORD_PATH, usePasswordLink } from './password-links';

export const SET_PASSWORD_TITLE = 'Set your Locus password';
export const LINK_NOT_VALID = 'This set-password link has expired or was already used. Ask your administrator for a new one.';
export const PASSWORDS_DIFFER = 'The two passwords do not match.';

/** Set-password form posts allowed per client address per minute (each one costs a scrypt hash). */
export const SET_PASSWORD_POSTS_PER_MINUTE = 30;

export interface SetPasswordDeps {
  db: Db;
  clock: Clock;
  paths: PagePaths;
  /** Fastify path the provider is mounted at ("/oidc"). */
  mount: string;
}

/** The form: the account it is for, the new password twice, the token as a hidden field. */
export function setPasswordPage(paths: PagePaths, opts: { token: string; email: string; error?: string }): string {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>\n` : '';
  return layout(
    paths,
    SET_PASSWORD_TITLE,
    `<h1>${SET_PASSWORD_TITLE}</h1>
<p class="muted">For ${escapeHtml(opts.email)}. Choose a password of at least ${PASSWORD_MIN_LENGTH} characters; a few unrelated words make a good one.</p>
${error}<form method="post" action="${escapeHtml(paths.base + SET_PASSWORD_PATH)}" novalidate>
<input type="hidden" name="token" value="${escapeHtml(opts.token)}">
<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(opts.email)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required autofocus>
<label for="confirm">Repeat the new password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required>
<button type="submit">Set password</button>
</form>`,
  );
}

export function passwordSetPage(paths: PagePaths): string {
  return layout(
    paths,
    'Password set',
    `<h1>Password set</h1>
<p>Your password is set. You can now sign in to Locus with your e-mail and the new password.</p>
<p><a href="${escapeHtml(paths.appUrl)}/">Sign in to Locus</a></p>`,
  );
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * GET/POST {mount}/set-password?token=…: the page a one-time link opens (issued by an
 * administrator, server/identity/password-links.ts). Plain HTML like the sign-in page, so it
 * works under the app's CSP without script.
 */
export async function setPasswordRoutes(app: FastifyInstance, deps: SetPasswordDeps): Promise<void> {
  const { db, clock, paths } = deps;
  const path = `${deps.mount}${SET_PASSWORD_PATH}`;
  const notValid = (reply: FastifyReply) => sendHtml(reply, 410, messagePage(paths, { title: 'Link not valid', message: LINK_NOT_VALID }));

  await app.register(fastifyFormbody);

  app.get<{ Querystring: { token?: unknown } }>(path, { schema: { hide: true } }, async (request, reply) => {
    const token = text(request.query.token);
    const email = await passwordLinkAccount(db, clock, token);
    return email ? sendHtml(reply, 200, setPasswordPage(paths, { token, email })) : notValid(reply);
  });

  app.post<{ Body: Record<string, unknown> | undefined }>(
    path,
    { schema: { hide: true }, config: { rateLimit: { max: SET_PASSWORD_POSTS_PER_MINUTE, timeWindow: 60_000 } } },
    async (request, reply) => {
      const token = text(request.body?.token);
      const password = text(request.body?.password);
      const email = await passwordLinkAccount(db, clock, token);
      if (!email) return notValid(reply);
      const form = (error: string) => sendHtml(reply, 400, setPasswordPage(paths, { token, email, error }));
      const checked = NewPassword.safeParse(password);
      if (!checked.success) return form(checked.error.issues[0]?.message ?? PASSWORD_TOO_SHORT);
      if (password !== text(request.body?.confirm)) return form(PASSWORDS_DIFFER);
      if (!(await usePasswordLink(db, clock, token, await hashPassword(password)))) return notValid(reply);
      request.log.info({ email }, 'password set through a one-time link');
      return sendHtml(reply, 200, passwordSetPage(paths));
    },
  );
}
