import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, can, canReachOrganization } from '../../../core/permissions';
import { RefuseBody, ReleaseBody, ReleaseRequest, ReleaseRequestList, ReleaseRequestQuery } from '../../../core/schemas/foreign-queries';
import { ErrorBody, Id } from '../../../core/schemas/common';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { cases, foreignQueries, foreignQueryReleases, profiles } from '../../db/schema';
import { Forbidden, NotFound } from '../../errors';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { decideRelease, findReleaseRequest, type ReleaseDecision } from '../../network/foreign-queries';
import { auditActor } from '../audit-actor';
import { inReachableOrganizations } from '../tenancy';

const tags = ['network'];
/** Deciding whether a hit's data leave the laboratory is a hit decision (spec 6: Hits Publish), in the profile's organization. */
const DECIDE = { entity: 'Hits', verb: 'Publish' } as const;

/** Release requests with what the reviewer needs: the query's sender and answer, and the laboratory's own profile. */
function selectRequests(db: Db) {
  return db
    .select({ release: foreignQueryReleases, query: foreignQueries, sampleName: profiles.profileId, caseId: profiles.caseId, caseNumber: cases.caseNumber })
    .from(foreignQueryReleases)
    .innerJoin(foreignQueries, eq(foreignQueries.id, foreignQueryReleases.foreignQueryId))
    .innerJoin(profiles, eq(profiles.id, foreignQueryReleases.profileId))
    .innerJoin(cases, eq(cases.id, profiles.caseId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectRequests>['where']>>[number];

const toReleaseRequest = ({ release, query, sampleName, caseId, caseNumber }: Selected): ReleaseRequest => ({
  id: release.id,
  version: release.version,
  reference: query.reference,
  requestingCountry: query.requestingCountry,
  requestingInstance: query.requestingInstance,
  receivedAt: query.createdAt.toISOString(),
  stringency: query.stringency as ReleaseRequest['stringency'],
  candidateCount: query.candidateCount,
  profileId: release.profileId,
  sampleName,
  caseId,
  caseNumber,
  organizationId: release.organizationId,
  status: release.status as ReleaseRequest['status'],
  reason: release.reason,
  decidedAt: release.decidedAt?.toISOString() ?? null,
});

/** A request the user may decide: in an organization they reach (404 otherwise, as for any record) with Hits Publish there. */
async function decidable(db: Db, user: AuthenticatedUser, id: string) {
  const row = await findReleaseRequest(db, id);
  if (!canReachOrganization(user, row.organizationId)) throw new NotFound(`No release request with id ${id}`);
  if (!can(user, DECIDE.entity, DECIDE.verb, { orgId: row.organizationId })) throw new Forbidden('Deciding a release request needs Hits Publish in the profile’s organization');
  return row;
}

/**
 * Release requests (issue 32, Prüm II): each candidate of a foreign query's hit waits for a person of the laboratory
 * holding the profile, who releases its data to the sender or refuses with a reason.
 */
export const releaseRequestRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  app.get(
    '/network/release-requests',
    {
      config: { access: DECIDE },
      schema: {
        tags,
        summary: 'Foreign queries’ candidates in the organization (or every one reached), by decision, newest first',
        querystring: ReleaseRequestQuery,
        response: { 200: ReleaseRequestList, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { organizationId, status } = request.query;
      const everywhere = organizationId === ALL_ORGANIZATIONS;
      if (!everywhere && !can(request.user, DECIDE.entity, DECIDE.verb, { orgId: organizationId })) throw new Forbidden();
      const rows = await selectRequests(db)
        .where(
          and(
            eq(foreignQueryReleases.status, status),
            everywhere ? inReachableOrganizations(foreignQueryReleases.organizationId, request.user) : eq(foreignQueryReleases.organizationId, organizationId),
          ),
        )
        .orderBy(desc(foreignQueryReleases.createdAt))
        .limit(500);
      return { items: rows.map(toReleaseRequest) };
    },
  );

  const decide = async (user: AuthenticatedUser, id: string, decision: ReleaseDecision, version: number) => {
    const row = await decidable(db, user, id);
    await decideRelease(db, clock, auditActor(user), row, decision, version);
    const [decided] = await selectRequests(db).where(eq(foreignQueryReleases.id, id));
    return toReleaseRequest(decided!);
  };

  // Release and refuse differ only in their body and the decision it makes.
  const decisions = [
    { verb: 'release', summary: 'Release the matched profile’s specimen id, laboratory and genotypes to the foreign sender', body: ReleaseBody, decision: (): ReleaseDecision => ({ status: 'released' }) },
    { verb: 'refuse', summary: 'Refuse to release the matched profile’s data, with a reason the sender is told', body: RefuseBody, decision: (b: z.infer<typeof RefuseBody>): ReleaseDecision => ({ status: 'refused', reason: b.reason }) },
  ] as const;
  for (const { verb, summary, body, decision } of decisions) {
    app.post(
      `/network/release-requests/:id/${verb}`,
      {
        config: { access: DECIDE },
        schema: { tags, summary, params: z.object({ id: Id }), body, response: { 200: ReleaseRequest, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
      },
      async (request) => decide(request.user, request.params.id, decision(request.body as z.infer<typeof RefuseBody>), request.body.version),
    );
  }
};
