import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { CandidateMatchesReceived, CandidateMatchNotices } from '../../../core/schemas/candidate-matches';
import { ErrorBody } from '../../../core/schemas/common';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { lowerInstances } from '../../db/schema';
import { noticesReceived, undeliveredNotices } from '../../network/candidate-match-notices';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { NETWORK_SERVICE } from './access';

const tags = ['network'];
const security = [{ bearer: [] }];

/** The lower instance the calling service client signs in for; for any other client there are none here (404). */
async function callerInstance(db: Db, user: AuthenticatedUser) {
  const service = user.service!;
  const [instance] = await db.select().from(lowerInstances).where(eq(lowerInstances.serviceClientId, service.serviceClientId));
  if (!instance) throw new NotFound(`The service client "${service.name}" is not registered here as a lower instance, so no candidate matches wait for it: register it under Administration → Network first`);
  return instance;
}

/**
 * Candidate matches sent down (issue 32): a lower instance pulls the notices of the hits its laboratories' held
 * profiles are in (this level holds no credentials there), then says which it stored; until then a notice is sent
 * again, so an answer lost on the way loses nothing (the lower instance stores a notice once, by its id).
 */
export const candidateNoticeRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  app.get(
    '/network/candidate-matches',
    {
      config: { access: NETWORK_SERVICE },
      schema: {
        tags,
        summary: 'The candidate matches of the caller’s laboratories it has not yet stored, oldest first (at most 100)',
        security,
        response: { 200: CandidateMatchNotices, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ({ items: await undeliveredNotices(db, (await callerInstance(db, request.user)).id) }),
  );

  app.post(
    '/network/candidate-matches/received',
    {
      config: { access: NETWORK_SERVICE },
      schema: {
        tags,
        summary: 'The candidate matches the lower instance stored: they are not sent again',
        security,
        body: CandidateMatchesReceived,
        response: { 200: z.object({ received: z.number().int() }), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ({ received: await noticesReceived(db, clock, (await callerInstance(db, request.user)).id, request.body.ids) }),
  );
};
