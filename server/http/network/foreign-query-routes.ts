import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ForeignQueryAnswer, ForeignQueryBody, type ReleaseStatus } from '../../../core/schemas/foreign-queries';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { chemistries, foreignQueries, foreignQueryReleases, organizations, profiles } from '../../db/schema';
import { NotFound } from '../../errors';
import { loadMatchIndexes } from '../../matching/load-indexes';
import { MatchingService } from '../../matching/matching-service';
import { answerStatus, recordForeignQuery, type ForeignQueryRow } from '../../network/foreign-queries';
import { searchForeignProfile } from '../../network/foreign-query-search';
import type { SearchRuntime } from '../../search/search-runtime';
import { auditActor } from '../audit-actor';
import { readMarkerValues } from '../profiles/marker-values';
import { FOREIGN_SENDER } from './access';
import { readForeignProfile } from './foreign-query-input';

const tags = ['network'];
const security = [{ bearer: [] }];

/** The sender's answer: hit / no hit, stringency, count, each candidate's decision, and data only of released ones. */
async function answerOf(db: Db, query: ForeignQueryRow): Promise<ForeignQueryAnswer> {
  const releases = await db
    .select({ release: foreignQueryReleases, specimenId: profiles.profileId, laboratory: organizations.name, kit: chemistries.name })
    .from(foreignQueryReleases)
    .innerJoin(profiles, eq(profiles.id, foreignQueryReleases.profileId))
    .innerJoin(organizations, eq(organizations.id, foreignQueryReleases.organizationId))
    .innerJoin(chemistries, eq(chemistries.id, profiles.chemistryId))
    .where(eq(foreignQueryReleases.foreignQueryId, query.id))
    .orderBy(asc(foreignQueryReleases.id));
  const matches = await Promise.all(
    releases.map(async ({ release, specimenId, laboratory, kit }) => ({
      status: release.status as ReleaseStatus,
      reason: release.reason,
      profile:
        release.status === 'released'
          ? { specimenId, laboratory, kit, markerValues: (await readMarkerValues(db, release.profileId)).map((v) => ({ marker: v.marker, alleles: v.alleles })) }
          : null,
    })),
  );
  const hit = query.stringency !== null;
  return {
    id: query.id,
    reference: query.reference,
    hit,
    stringency: query.stringency as ForeignQueryAnswer['stringency'],
    candidateCount: query.candidateCount,
    status: answerStatus(hit, matches.map((m) => m.status)),
    matches,
  };
}

/**
 * Foreign queries (issue 32, Prüm II): another country's instance, signed in as a service client, sends a profile and
 * is answered hit / no hit with the stringency and the number of candidates; it polls the answer, which carries a
 * candidate's specimen id, laboratory and genotypes only once a person here released it.
 */
export const foreignQueryRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; search?: SearchRuntime }> = async (app, { db, clock, search }) => {
  // Without the server's search runtime (a route test), the approved profiles are indexed for each query.
  const matcher = async () => (search ? search.matcher() : new MatchingService(await loadMatchIndexes(db)));

  app.post(
    '/network/foreign-queries',
    {
      config: { access: FOREIGN_SENDER },
      schema: {
        tags,
        summary: 'A foreign instance’s profile searched here (identity, high then moderate stringency): hit / no hit, the stringency and the number of candidates, nothing else',
        security,
        body: ForeignQueryBody,
        response: { 201: ForeignQueryAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { reference, requestingCountry, requestingInstance } = request.body;
      const profile = await readForeignProfile(db, request.body);
      const result = await searchForeignProfile(db, await matcher(), search?.pool, profile.kind, profile.query);
      const row = await recordForeignQuery(
        db,
        clock,
        auditActor(request.user),
        { serviceClientId: request.user.service!.serviceClientId, reference, requestingCountry, requestingInstance, chemistryId: profile.chemistryId, markerCount: profile.query.size },
        result,
      );
      return reply.code(201).send(await answerOf(db, row));
    },
  );

  app.get(
    '/network/foreign-queries/:id',
    {
      config: { access: FOREIGN_SENDER },
      schema: {
        tags,
        summary: 'The answer to a foreign query, as its sender polls it: each candidate’s decision, and the data of those released',
        security,
        params: z.object({ id: Id }),
        response: { 200: ForeignQueryAnswer, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      // Only the sender reads its answer; another client is not told the query exists.
      const [row] = await db
        .select()
        .from(foreignQueries)
        .where(and(eq(foreignQueries.id, request.params.id), eq(foreignQueries.serviceClientId, request.user.service!.serviceClientId)));
      if (!row) throw new NotFound(`No foreign query with id ${request.params.id}`);
      const answer = await answerOf(db, row);
      const released = answer.matches.filter((m) => m.profile !== null).length;
      // Data leaving the instance is on the trail each time it leaves.
      if (released > 0) {
        await db.transaction((tx) => appendAudit(tx as unknown as Db, auditActor(request.user), clock, { entity: 'ForeignQuery', entityId: row.id, action: 'Released data fetched', after: { reference: row.reference, released } }));
      }
      return answer;
    },
  );
};
