import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ChangePasswordInput, PasswordLink, SetPasswordInput } from '../../../core/schemas/users';
import { users } from '../../db/schema';
import { issuePasswordLink } from '../../identity/password-links';
import { hashPassword, verifyPassword } from '../../identity/password';
import type { Access } from '../access';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { RouteDeps } from '../route-deps';
import { BadRequest, Conflict } from '../errors';
import { findVisibleUser } from './user-queries';
import { assertMayControlAccount } from './user-rules';

export const EXTERNAL_PASSWORDS = 'Passwords are managed by the external identity provider';
export const WRONG_CURRENT_PASSWORD = 'The current password is incorrect.';

/** Password changes a signed-in user may try per address per 15 minutes (each costs two scrypt hashes). */
export const PASSWORD_CHANGES_PER_WINDOW = 10;

const tags = ['users'];
const ById = z.object({ id: Id });
/** Setting someone else's password is an administrator's act (spec 6 keeps account control with administrators). */
export const ADMINISTRATORS_ONLY: Access = { rule: 'administrators (IsAdmin), for users they can see', allows: (user: AuthenticatedUser) => user.isAdmin };

/**
 * Passwords of the embedded identity provider: an administrator sets one or issues a one-time
 * set-password link; a user changes their own. With an external provider these answer 409.
 */
export const passwordRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, config, clock }) => {
  const identity = config.identity;
  const embeddedOnly = () => {
    if (identity.kind !== 'embedded') throw new Conflict(EXTERNAL_PASSWORDS);
  };
  const setHash = async (userId: string, password: string) =>
    db.update(users).set({ passwordHash: await hashPassword(password), failedSignIns: 0 }).where(eq(users.id, userId));

  app.post(
    '/users/:id/password',
    {
      config: { access: ADMINISTRATORS_ONLY },
      schema: {
        tags,
        summary: "Set a user's password (administrators, embedded provider)",
        params: ById,
        body: SetPasswordInput,
        response: { 204: z.null(), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      embeddedOnly();
      const target = await findVisibleUser(db, request.user, request.params.id);
      assertMayControlAccount(request.user, target);
      await setHash(target.row.id, request.body.password);
      request.log.info({ userId: target.row.id, by: request.user.id }, 'password set by an administrator');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/:id/password-link',
    {
      config: { access: ADMINISTRATORS_ONLY },
      schema: {
        tags,
        summary: 'Issue a one-time set-password link, valid 72 hours (administrators, embedded provider)',
        params: ById,
        response: { 201: PasswordLink, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      embeddedOnly();
      const target = await findVisibleUser(db, request.user, request.params.id);
      assertMayControlAccount(request.user, target);
      const link = await issuePasswordLink(db, clock, target.row.id, identity.issuer);
      return reply.code(201).send({ url: link.url, expiresAt: link.expiresAt.toISOString() });
    },
  );

  app.put(
    '/me/password',
    {
      config: { access: { signedIn: true }, rateLimit: { max: PASSWORD_CHANGES_PER_WINDOW, timeWindow: 15 * 60_000 } },
      schema: { tags: ['session'], summary: 'Change your own password (embedded provider)', body: ChangePasswordInput, response: { 204: z.null(), 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      embeddedOnly();
      const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, request.user.id));
      if (!(await verifyPassword(request.body.currentPassword, row?.passwordHash))) throw new BadRequest(WRONG_CURRENT_PASSWORD);
      await setHash(request.user.id, request.body.newPassword);
      return reply.code(204).send(null);
    },
  );
};
