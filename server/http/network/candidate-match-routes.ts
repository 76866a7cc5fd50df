import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, can, canReachOrganization } from '../../../core/permissions';
import { CandidateMatch, CandidateMatchList, CandidateMatchQuery, ConfirmCandidateBody, RejectCandidateBody, type CandidateDecision } from '../../../core/schemas/candidate-matches';
import { ErrorBody, Id } from '../../../core/schemas/common';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { candidateMatches, cases, profiles } from '../../db/schema';
import type { OrganizationEvents } from '../../events/organization-events';
import { Forbidden, NotFound } from '../../errors';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { decideCandidateMatch, findCandidateMatch } from '../../network/candidate-match-decisions';
import type { UploadSender } from '../../network/upload-sender';
import { auditActor } from '../audit-actor';
import { inReachableOrganizations } from '../tenancy';

const tags = ['network'];
/** Reading a candidate match is reading a hit, deciding it publishing one (spec 6), in the profile's organization. */
const READ = { entity: 'Hits', verb: 'Read' } as const;
const DECIDE = { entity: 'Hits', verb: 'Publish' } as const;
const LIST_LIMIT = 500;

function selectMatches(db: Db) {
  return db
    .select({ match: candidateMatches, sampleName: profiles.profileId, caseId: profiles.caseId, caseNumber: cases.caseNumber })
    .from(candidateMatches)
    .innerJoin(profiles, eq(profiles.id, candidateMatches.profileId))
    .innerJoin(cases, eq(cases.id, profiles.caseId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectMatches>['where']>>[number];

const toCandidateMatch = ({ match, sampleName, caseId, caseNumber }: Selected): CandidateMatch => ({
  id: match.id,
  version: match.version,
  organizationId: match.organizationId,
  profileId: match.profileId,
  sampleName,
  caseId,
  caseNumber,
  upperInstance: match.upperInstance,
  counterparts: match.notice.counterparts,
  analysis: match.notice.analysis,
  matchKind: match.notice.matchKind,
  stringency: match.notice.stringency,
  statistics: match.notice.statistics,
  foundAt: match.notice.foundAt,
  receivedAt: match.createdAt.toISOString(),
  status: match.status as CandidateMatch['status'],
  reason: match.reason,
  decidedBy: match.decidedByName,
  decidedAt: match.decidedAt?.toISOString() ?? null,
});

/** A match the user may decide: in an organization they reach (404 otherwise, as for any record) with Hits Publish there. */
async function decidable(db: Db, user: AuthenticatedUser, id: string) {
  const row = await findCandidateMatch(db, id);
  if (!canReachOrganization(user, row.organizationId)) throw new NotFound(`No candidate match with id ${id}`);
  if (!can(user, DECIDE.entity, DECIDE.verb, { orgId: row.organizationId })) throw new Forbidden('Deciding a candidate match needs Hits Publish in the profile’s organization');
  return row;
}

/**
 * Casework → Candidate matches (issue 32): the matches the upper level found for this laboratory's profiles, reviewed
 * like hits. A decision travels up in the upload outbox, and wakes its sender at once.
 */
export const candidateMatchRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; sender: UploadSender; events?: Pick<OrganizationEvents, 'publish'> }> = async (app, { db, clock, sender, events }) => {
  app.get(
    '/candidate-matches',
    {
      config: { access: READ },
      schema: {
        tags,
        summary: 'Candidate matches sent down by the upper instance in the organization (or every one reached): pending first, then newest first',
        querystring: CandidateMatchQuery,
        response: { 200: CandidateMatchList, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { organizationId, status } = request.query;
      const everywhere = organizationId === ALL_ORGANIZATIONS;
      if (!everywhere && !can(request.user, READ.entity, READ.verb, { orgId: organizationId })) throw new Forbidden();
      const rows = await selectMatches(db)
        .where(
          and(
            status ? eq(candidateMatches.status, status) : undefined,
            everywhere ? inReachableOrganizations(candidateMatches.organizationId, request.user) : eq(candidateMatches.organizationId, organizationId),
          ),
        )
        .orderBy(asc(sql`${candidateMatches.status} <> 'pending'`), desc(candidateMatches.createdAt))
        .limit(LIST_LIMIT);
      return { items: rows.map(toCandidateMatch) };
    },
  );

  const decide = async (user: AuthenticatedUser, id: string, decision: Omit<CandidateDecision, 'candidateMatchId'>, version: number) => {
    const row = await decidable(db, user, id);
    await decideCandidateMatch(db, clock, auditActor(user), row, decision, version);
    // Committed: the decision's outbox entry goes up now, and open lists read again.
    sender.wake();
    events?.publish(row.organizationId, 'hits');
    const [decided] = await selectMatches(db).where(eq(candidateMatches.id, id));
    return toCandidateMatch(decided!);
  };

  app.post(
    '/candidate-matches/:id/confirm',
    {
      config: { access: DECIDE },
      schema: { tags, summary: 'Confirm the candidate match; the upper instance is told', params: z.object({ id: Id }), body: ConfirmCandidateBody, response: { 200: CandidateMatch, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => decide(request.user, request.params.id, { status: 'confirmed', reason: null }, request.body.version),
  );
  app.post(
    '/candidate-matches/:id/reject',
    {
      config: { access: DECIDE },
      schema: { tags, summary: 'Reject the candidate match with a reason; the upper instance is told', params: z.object({ id: Id }), body: RejectCandidateBody, response: { 200: CandidateMatch, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => decide(request.user, request.params.id, { status: 'rejected', reason: request.body.reason }, request.body.version),
  );
};
