import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AccessToken, AccessTokenList, CreateAccessTokenBody, CreatedAccessToken } from '../../../core/schemas/access-tokens';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { accessTokens } from '../../db/schema';
import { createAccessToken } from '../../identity/access-tokens';
import { Forbidden, NotFound } from '../../errors';
import { auditActor } from '../audit-actor';

const tags = ['session'];
type Row = typeof accessTokens.$inferSelect;

const toAccessToken = (r: Row): AccessToken => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

/** What the audit trail keeps of a token: never the token, never its hash. */
const audited = (r: Row) => ({ name: r.name, prefix: r.prefix, expiresAt: r.expiresAt.toISOString(), revokedAt: r.revokedAt?.toISOString() ?? null });

/**
 * Personal access tokens (issue 18): a signed-in user lists, creates and revokes their own tokens for scripts and a
 * LIMS. A token acts with its user's permissions and organizations as they are at each call.
 */
export const accessTokenRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  app.get(
    '/me/access-tokens',
    {
      config: { access: { signedIn: true } },
      schema: { tags, summary: 'The signed-in user’s personal access tokens, newest first (revoked and expired ones included)', security: [{ bearer: [] }], response: { 200: AccessTokenList, 401: ErrorBody } },
    },
    async (request) => {
      const rows = await db.select().from(accessTokens).where(eq(accessTokens.userId, request.user.id)).orderBy(desc(accessTokens.createdAt));
      return { items: rows.map(toAccessToken) };
    },
  );

  app.post(
    '/me/access-tokens',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags,
        summary: 'Create a personal access token; the token is in this answer only',
        security: [{ bearer: [] }],
        body: CreateAccessTokenBody,
        response: { 201: CreatedAccessToken, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      // A token must not mint more tokens: one leaked token would otherwise outlive its own revocation.
      if (request.viaAccessToken) throw new Forbidden('Personal access tokens are created when signed in, not with another access token.');
      const { token, row } = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const created = await createAccessToken(t, clock, request.user.id, request.body.name, request.body.expiresInDays);
        await appendAudit(t, auditActor(request.user), clock, { entity: 'AccessToken', entityId: created.row.id, action: 'Created', after: audited(created.row) });
        return created;
      });
      return reply.code(201).send({ ...toAccessToken(row), token });
    },
  );

  app.delete(
    '/me/access-tokens/:id',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags,
        summary: 'Revoke one of the signed-in user’s personal access tokens; it stops working at once',
        security: [{ bearer: [] }],
        params: z.object({ id: Id }),
        response: { 200: AccessToken, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const [row] = await db.select().from(accessTokens).where(and(eq(accessTokens.id, request.params.id), eq(accessTokens.userId, request.user.id)));
      if (!row) throw new NotFound('No such access token of yours');
      if (row.revokedAt) return toAccessToken(row);
      const revoked = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [changed] = await t.update(accessTokens).set({ revokedAt: clock.now(), updatedAt: clock.now() }).where(eq(accessTokens.id, row.id)).returning();
        await appendAudit(t, auditActor(request.user), clock, { entity: 'AccessToken', entityId: row.id, action: 'Revoked', before: audited(row), after: audited(changed!) });
        return changed!;
      });
      return toAccessToken(revoked);
    },
  );
};
