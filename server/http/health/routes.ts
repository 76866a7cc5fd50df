import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody } from '../../../core/schemas/common';
import { OutboxBacklog } from '../../../core/schemas/network-delivery';
import type { Db } from '../../db/database';
import type { PoolState } from '../../search/search-pool';
import type { MatchIndexState } from '../../search/search-runtime';

const MatchIndex = z
  .object({
    state: z.enum(['loading', 'ready']).meta({ description: 'loading: start-up is still reading the approved profiles (searches answer 503); ready: every approved profile is indexed' }),
    loaded: z.number().int().meta({ description: 'Approved profiles read into the index so far' }),
    total: z.number().int().meta({ description: 'Approved profiles to read (counted when the load began)' }),
  })
  .meta({ id: 'MatchIndexState' });

const SearchThreads = z
  .object({
    threads: z.number().int().meta({ description: 'Search worker threads (SEARCH_THREADS; one per core by default)' }),
    running: z.number().int().meta({ description: 'Searches on a thread or waiting for one' }),
    queued: z.number().int().meta({ description: 'Searches waiting for a free thread' }),
  })
  .meta({ id: 'SearchThreads' });

const Health = z
  .object({
    status: z.literal('ok'),
    database: z.enum(['pglite', 'postgres']),
    /** Absent on a process without the matcher (some test set-ups). */
    index: MatchIndex.optional(),
    /** The search workers' load (ARCHITECTURE.md "Using every core"); absent without the matcher. */
    searches: SearchThreads.optional(),
    /** The upload outbox's backlog toward the upper instance (issue 32); absent without it wired. */
    uploads: OutboxBacklog.optional(),
  })
  .meta({ id: 'Health' });

/** GET /api/health: the process is up, its database answers, how far the matching index has loaded, what waits to go up. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; kind: 'pglite' | 'postgres'; index?: () => MatchIndexState; searches?: () => PoolState; uploads?: () => Promise<OutboxBacklog> }> = async (app, { db, kind, index, searches, uploads }) => {
  app.get(
    '/health',
    { config: { access: { public: true } }, schema: { tags: ['system'], summary: 'Liveness, database check and the matching index’s start-up load', response: { 200: Health, 503: ErrorBody } } },
    async (_request, reply) => {
      try {
        // The backlog's one statement proves the database answers: one round trip per probe, not two.
        const backlog = uploads ? await uploads() : undefined;
        if (!backlog) await db.execute(sql`select 1`);
        return { status: 'ok' as const, database: kind, ...(index ? { index: { ...index() } } : {}), ...(searches ? { searches: searches() } : {}), ...(backlog ? { uploads: backlog } : {}) };
      } catch {
        return reply.code(503).send({ error: 'Database unavailable' });
      }
    },
  );
};
