import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody } from '../../../core/schemas/common';
import type { Db } from '../../db/database';

const Health = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }).meta({ id: 'Health' });

/** GET /api/health: the process is up and its database answers. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; kind: 'pglite' | 'postgres' }> = async (app, { db, kind }) => {
  app.get(
    '/health',
    { config: { access: { public: true } }, schema: { tags: ['system'], summary: 'Liveness and database check', response: { 200: Health, 503: ErrorBody } } },
    async (_request, reply) => {
      try {
        await db.execute(sql`select 1`);
        return { status: 'ok' as const, database: kind };
      } catch {
        return reply.code(503).send({ error: 'Database unavailable' });
      }
    },
  );
};
