import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { AddProfilesBody, APPROVAL_HEADER, Profile } from '../../../core/schemas/profiles';
import { appendAudit } from '../../audit/audit-trail';
import type { Db } from '../../db/database';
import { profileImportRows, profiles } from '../../db/schema';
import { profilesDigest, type ApprovalTokens } from '../../imports/approval-token';
import { approvedImport, claimImport, runConfirm } from '../profile-imports/confirm-import';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import { findVisibleCase } from '../cases/case-access';
import { BadRequest } from '../errors';
import { assertCaseTakesProfiles } from './held-profile';
import { assertNoMarkerErrors, chemistryOrder, checkMarkerValues, loadMarkers, markerCodes, writeMarkerValues } from './marker-values';
import { checkReplicates, sampleTypeErrors, writeReplicates } from './replicate-values';
import { readShownProfiles, toProfile, type ShownProfileRow } from './profile-query';
import { checkProfileReferences } from './profile-references';
import { profileAuditTarget, profileSnapshot } from './profile-snapshot';
import { caseProfileNamesHeld, lockCaseProfileNames } from './case-profile-names';

/** The profiles an import confirmation added, as the API returns them (file order). */
async function addedProfiles(db: Db, ids: readonly string[]) {
  const rows: ShownProfileRow[] = [];
  for (let i = 0; i < ids.length; i += 1000) rows.push(...(await readShownProfiles(db, inArray(profiles.id, ids.slice(i, i + 1000)))));
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.map(toProfile).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** The 400 of a confirmation whose chosen profiles cannot all be added: each one with its reasons. */
async function problemsRefusal(db: Db, importId: string, caseNumber: string): Promise<BadRequest> {
  const rows = await db
    .select({ index: profileImportRows.index, profileId: profileImportRows.profileId, problems: profileImportRows.addProblems })
    .from(profileImportRows)
    .where(and(eq(profileImportRows.importId, importId), sql`jsonb_array_length(${profileImportRows.addProblems}) > 0`))
    .orderBy(asc(profileImportRows.index))
    .limit(200);
  const details = rows.flatMap((r) => (r.problems as string[]).map((message) => ({ path: `/profiles/${r.index}`, message })));
  const taken = rows.filter((r) => (r.problems as string[]).every((m) => m.startsWith(`Case ${caseNumber} already has profile`)));
  if (taken.length === rows.length) {
    return new BadRequest(`Case ${caseNumber} already has profile${taken.length === 1 ? '' : 's'} ${taken.map((r) => r.profileId).join(', ')}; nothing was added.`, details);
  }
  const first = `${rows[0]!.profileId}: ${(rows[0]!.problems as string[])[0]}`;
  return new BadRequest(`${first}${rows.length > 1 ? ` (and ${rows.length - 1} more profile${rows.length === 2 ? '' : 's'} with problems)` : ''}; nothing was added.`, details);
}

/**
 * POST /profiles (spec 4, ARCHITECTURE.md "Calls"): adds profiles to a case as pending. Profiles
 * from a file come with the import's approval token, and the server refuses content other than
 * what it parsed; all of them are added in one transaction or none is.
 */
export function profileAddRoute(tokens: ApprovalTokens): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, { db, clock, events }) => {
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
        if (approval !== undefined) {
          // From a file: what the import parsed and stored, checked against the token, each profile again.
          const job = await approvedImport(db, tokens, approval, request.user, body.caseId, profilesDigest(body.profiles));
          const { profiles: _sent, include, importedFrom: _name, ...assignment } = body;
          const choice = { include: include ?? body.profiles.map((_, i) => i) };
          const { ctx } = await claimImport({ db, clock, actor: auditActor(request.user), events }, request.user, job, assignment, choice);
          // Up to 5000 profiles here: one batch, so they are all added or none is.
          const outcome = await runConfirm(ctx, Number.MAX_SAFE_INTEGER);
          if (outcome.kind === 'problems') throw await problemsRefusal(db, job.id, ctx.found.caseNumber);
          const items = await addedProfiles(db, outcome.ids);
          return reply.code(201).send({ items, count: items.length });
        }
        const found = await findVisibleCase(db, request.user, body.caseId);
        await assertCaseTakesProfiles(db, found);
        if (body.profiles.length !== 1 || body.include) {
          throw new BadRequest('Profiles from a file are added with the approval of their import; enter one profile at a time by hand.');
        }
        // Entered by hand: one profile.
        const draft = body.profiles[0]!;
        const { chemistry } = await checkProfileReferences(db, found.id, body);
        const [taken] = await caseProfileNamesHeld(db, found.id, [draft.profileId]);
        if (taken !== undefined) throw new BadRequest(`Case ${found.caseNumber} already has profile ${taken}; nothing was added.`);
        const markers = await loadMarkers(db, draft.markerValues.map((m) => m.markerId));
        const order = await chemistryOrder(db, chemistry.id);
        const checked = checkMarkerValues(draft.markerValues, { kind: chemistry.kind, sampleType: body.sampleType, markers, order, pathPrefix: '/profiles/0' });
        const names = new Map([...markers].map(([id, m]) => [id, m.name]));
        const replicates = checkReplicates(draft.replicates ?? [], checked.values, names, '/profiles/0');
        assertNoMarkerErrors([...checked.errors, ...sampleTypeErrors(draft.replicates ?? [], body.sampleType, '/profiles/0'), ...replicates.errors]);
        const codes = await markerCodes(db, checked.values.map((v) => v.markerId));

        const added = await db.transaction(async (tx) => {
          const t = tx as unknown as Db;
          // Checked again under the case's lock: another request may have added the name since the check above.
          const [held] = await lockCaseProfileNames(t, found.id, [draft.profileId]);
          if (held !== undefined) throw new BadRequest(`Case ${found.caseNumber} already has profile ${held}; nothing was added.`);
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
              involvedPartyId: body.involvedPartyId ?? null,
              laboratoryId: body.laboratoryId,
              comments: body.comments,
              source: 'Entered by hand',
              enteredBy: request.user.id,
            })
            .returning();
          await writeMarkerValues(t, row!.id, checked.values);
          await writeReplicates(t, row!.id, replicates.replicates, codes);
          const snapshot = await profileSnapshot(t, row!.id);
          await appendAudit(t, auditActor(request.user), clock, { ...profileAuditTarget(row!), action: 'Added', after: snapshot });
          return [snapshot];
        });
        // Committed: open profile lists and review counts read again.
        events?.publish(found.organizationId, 'profiles');
        return reply.code(201).send({ items: added.map(({ markerValues: _, ...p }) => p), count: added.length });
      },
    );
  };
}
