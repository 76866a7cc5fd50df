import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CASE_CLOSED_MESSAGE } from '../../../core/schemas/cases';
import { ErrorBody } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { AddProfilesBody, APPROVAL_HEADER, Profile, type ApprovalRefusal } from '../../../core/schemas/profiles';
import { appendAudit } from '../../audit/audit-trail';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { profiles } from '../../db/schema';
import type { ApprovalTokens } from '../../imports/approval-token';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import { findVisibleCase } from '../cases/case-access';
import { BadRequest, Conflict } from '../errors';
import { assertNoMarkerErrors, chemistryOrder, checkMarkerValues, loadMarkers, writeMarkerValues, type FieldError } from './marker-values';
import { checkProfileReferences } from './profile-references';
import { profileAuditTarget, profileSnapshot } from './profile-snapshot';

/** What the import screen shows when the server refuses an approval (400, `details.approval`). */
export const APPROVAL_REFUSAL_MESSAGES: Record<ApprovalRefusal, string> = {
  expired: 'The approval of this import has expired. Parse the file again, then confirm.',
  mismatch: 'The profiles sent differ from what the import parsed. Nothing was added.',
  foreign: 'This import was parsed for another user. Nothing was added.',
  invalid: 'The approval token is not valid. Nothing was added.',
};

/** Which of the sent profiles to add: an import's `include` indices (checked), or every one. */
function chosenIndices(body: AddProfilesBody): number[] {
  if (!body.include) return body.profiles.map((_, i) => i);
  const bad = body.include.find((i) => i >= body.profiles.length);
  if (bad !== undefined) throw new BadRequest(`Profile number ${bad + 1} is not part of this import`);
  const unique = [...new Set(body.include)];
  if (unique.length === 0) throw new BadRequest('Choose at least one profile to add');
  return unique;
}

/**
 * POST /profiles (spec 4, ARCHITECTURE.md "Calls"): adds profiles to a case as pending. Profiles
 * from a file come with the import's approval token, and the server refuses content other than
 * what it parsed; all of them are added in one transaction or none is.
 */
export function profileAddRoute(tokens: ApprovalTokens): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, { db, clock }) => {
    app.post(
      '/profiles',
      {
        config: { access: { entity: 'Profiles', verb: 'Add' } },
        schema: {
          tags: ['profiles'],
          summary: 'Add profiles to a case: one entered by hand, or an import confirmed with its token in the Approval header',
          headers: z.object({ [APPROVAL_HEADER.toLowerCase()]: z.string().max(4096).optional() }),
          body: AddProfilesBody,
          response: { 201: listOf(Profile), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const approval = request.headers[APPROVAL_HEADER.toLowerCase()] as string | undefined;
        const found = await findVisibleCase(db, request.user, body.caseId);
        if (found.status === 'Closed') throw new Conflict(CASE_CLOSED_MESSAGE);
        if (approval !== undefined) {
          const refusal = tokens.refusal(approval, request.user.id, body.profiles);
          if (refusal) throw new BadRequest(APPROVAL_REFUSAL_MESSAGES[refusal], { approval: refusal });
        } else if (body.profiles.length !== 1 || body.include) {
          throw new BadRequest('Profiles from a file are added with the approval of their import; enter one profile at a time by hand.');
        }
        const indices = chosenIndices(body);
        const { chemistry } = await checkProfileReferences(db, found.id, body);
        const chosen = indices.map((i) => ({ index: i, draft: body.profiles[i]! }));
        const names = new Map<string, number>();
        for (const { draft, index } of chosen) {
          const key = draft.profileId.toLowerCase();
          if (names.has(key)) throw new BadRequest(`Profile ${draft.profileId} appears twice`, [{ path: `/profiles/${index}/profileId`, message: 'Appears twice' }]);
          names.set(key, index);
        }
        const taken = await db
          .select({ profileId: profiles.profileId })
          .from(profiles)
          .where(and(eq(profiles.caseId, found.id), inArray(sql`lower(${profiles.profileId})`, [...names.keys()])));
        if (taken.length > 0) {
          const list = taken.map((t) => t.profileId).join(', ');
          throw new BadRequest(`Case ${found.caseNumber} already has profile${taken.length === 1 ? '' : 's'} ${list}; nothing was added.`);
        }
        const markers = await loadMarkers(db, chosen.flatMap(({ draft }) => draft.markerValues.map((m) => m.markerId)));
        const order = await chemistryOrder(db, chemistry.id);
        const errors: FieldError[] = [];
        const checked = chosen.map(({ draft, index }) => {
          const result = checkMarkerValues(draft.markerValues, { kind: chemistry.kind, sampleType: body.sampleType, markers, order, pathPrefix: `/profiles/${index}` });
          errors.push(...result.errors);
          if (approval !== undefined && result.values.length === 0 && result.errors.length === 0) {
            errors.push({ path: `/profiles/${index}/markerValues`, message: `Profile ${draft.profileId} has no marker values` });
          }
          return { draft, values: result.values };
        });
        assertNoMarkerErrors(errors);
        const source = approval !== undefined ? `Imported from ${body.importedFrom?.trim() || 'a file'}` : 'Entered by hand';

        const added = await onUniqueViolation(
          () =>
            db.transaction(async (tx) => {
              const t = tx as unknown as Db;
              const snapshots = [];
              for (const { draft, values } of checked) {
                const [row] = await t
                  .insert(profiles)
                  .values({
                    profileId: draft.profileId,
                    caseId: found.id,
                    organizationId: found.organizationId,
                    kind: chemistry.kind,
                    chemistryId: chemistry.id,
                    sampleType: body.sampleType,
                    sampleSourceId: body.sampleSourceId,
                    physicalItemId: body.physicalItemId,
                    laboratoryId: body.laboratoryId,
                    comments: body.comments,
                    source,
                  })
                  .returning();
                await writeMarkerValues(t, row!.id, values);
                const snapshot = await profileSnapshot(t, row!.id);
                await appendAudit(t, auditActor(request.user), clock, { ...profileAuditTarget(row!), action: approval !== undefined ? 'Imported' : 'Added', after: snapshot });
                snapshots.push(snapshot);
              }
              return snapshots;
            }),
          () => new BadRequest(`A profile with one of these names already exists in case ${found.caseNumber}; nothing was added.`),
        );
        return reply.code(201).send({ items: added.map(({ markerValues: _, ...p }) => p), count: added.length });
      },
    );
  };
}
