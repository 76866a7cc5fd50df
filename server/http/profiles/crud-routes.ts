import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { can } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { MARKER_KINDS } from '../../../core/schemas/markers';
import { ProfileWithMarkers, UpdateMarkersBody, UpdateProfileBody } from '../../../core/schemas/profiles';
import { appendAudit } from '../../audit/audit-trail';
import { deleteHitsOf } from '../../hits/record-hits';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { chemistries, chemistryMarkers, laboratories, markers, profiles, sampleSources } from '../../db/schema';
import type { Access } from '../access';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import { findVisibleCase } from '../cases/case-access';
import { BadRequest, Conflict } from '../errors';
import { updateVersioned } from '../../db/versioned';
import { checkProfileMarkerValues, writeMarkerValues } from './marker-values';
import { checkProfileReplicates, checkStoredReplicates, writeReplicates } from './replicate-values';
import { findVisibleProfile } from './profile-query';
import { checkProfileReferences } from './profile-references';
import { assertNotHeld } from './held-profile';
import { queueUpload } from '../../network/upload-outbox';
import { profileAuditTarget, profileSnapshot } from './profile-snapshot';

const tags = ['profiles'];
const ById = z.object({ id: Id });

const NamedOption = z.object({ id: Id, name: z.string() });
const ProfileFormOptions = z
  .object({
    chemistries: z.array(
      NamedOption.extend({
        kind: z.enum(MARKER_KINDS),
        markers: z.array(z.object({ id: Id, name: z.string(), kind: z.enum(MARKER_KINDS), multiCopy: z.boolean() })),
      }),
    ),
    sampleSources: z.array(NamedOption),
    laboratories: z.array(NamedOption),
  })
  .meta({ id: 'ProfileFormOptions' });

/** The profile forms' options: whoever may add or edit profiles. */
export const PROFILE_FORM_ACCESS: Access = { rule: 'Profiles Add or Profiles Edit', allows: (user) => can(user, 'Profiles', 'Add') || can(user, 'Profiles', 'Edit') };

/** Refuses changes to what matching reads (markers, chemistry) once a profile left pending. */
function assertPending(profile: { status: string; profileId: string }, what: string): void {
  if (profile.status !== 'pending') {
    throw new Conflict(`Profile ${profile.profileId} is ${profile.status}; reset it to pending before changing its ${what}.`);
  }
}

/** One profile: read, form options, edit, edit markers, delete (spec 2.8, 6). */
export const profileCrudRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock, events }) => {
  app.get(
    '/profiles/form-options',
    {
      config: { access: PROFILE_FORM_ACCESS },
      schema: { tags, summary: 'Chemistries (with their ordered markers), sample sources and laboratories the profile forms offer', response: { 200: ProfileFormOptions } },
    },
    async () => {
      const [chems, kitMarkers, sources, labs] = await Promise.all([
        db.select({ id: chemistries.id, name: chemistries.name, kind: chemistries.kind }).from(chemistries).orderBy(asc(chemistries.name)),
        db
          .select({ chemistryId: chemistryMarkers.chemistryId, id: markers.id, name: markers.name, kind: markers.kind, multiCopy: markers.multiCopy })
          .from(chemistryMarkers)
          .innerJoin(markers, eq(markers.id, chemistryMarkers.markerId))
          .orderBy(asc(chemistryMarkers.position)),
        db.select({ id: sampleSources.id, name: sampleSources.name }).from(sampleSources).orderBy(asc(sampleSources.name)),
        db.select({ id: laboratories.id, name: laboratories.name }).from(laboratories).orderBy(asc(laboratories.name)),
      ]);
      return {
        chemistries: chems.map((c) => ({
          ...c,
          kind: c.kind as (typeof MARKER_KINDS)[number],
          markers: kitMarkers.filter((m) => m.chemistryId === c.id).map(({ id, name, kind, multiCopy }) => ({ id, name, kind: kind as (typeof MARKER_KINDS)[number], multiCopy })),
        })),
        sampleSources: sources,
        laboratories: labs,
      };
    },
  );

  app.get(
    '/profiles/:id',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: { tags, summary: 'One profile with its marker values', params: ById, response: { 200: ProfileWithMarkers, 404: ErrorBody } },
    },
    async (request) => {
      const row = await findVisibleProfile(db, request.user, request.params.id);
      return profileSnapshot(db, row.profile.id);
    },
  );

  app.put(
    '/profiles/:id',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: { tags, summary: 'Edit a profile (sample name, case, chemistry, sample type, source, item, involved party, laboratory, comments)', params: ById, body: UpdateProfileBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      await assertNotHeld(db, current);
      const { version, ...input } = request.body;
      const targetCase = await findVisibleCase(db, request.user, input.caseId);
      const { chemistry } = await checkProfileReferences(db, targetCase.id, input);
      if (chemistry.kind !== current.kind) throw new BadRequest(`A ${current.kind === 'YStr' ? 'Y-STR' : 'autosomal'} profile needs a chemistry of its kind`, [{ path: '/chemistryId', message: 'Not of this profile’s kind' }]);
      if (chemistry.id !== current.chemistryId || targetCase.id !== current.caseId) assertPending(current, chemistry.id !== current.chemistryId ? 'chemistry' : 'case');
      return onUniqueViolation(
        () =>
          db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            const before = await profileSnapshot(t, current.id);
            // Left out, the party link stays, unless the profile moves to a case the party is not in.
            const party = input.involvedPartyId === undefined && targetCase.id !== current.caseId ? { involvedPartyId: null } : {};
            await updateVersioned(t, profiles, current.id, version, { ...input, ...party, organizationId: targetCase.organizationId }, 'profile');
            const after = await profileSnapshot(t, current.id);
            await appendAudit(t, auditActor(request.user), clock, { ...profileAuditTarget(after), action: 'Edited', before, after });
            return after;
          }),
        () => new BadRequest(`Case ${targetCase.caseNumber} already has a profile ${input.profileId}`, [{ path: '/profileId', message: 'Already used in this case' }]),
      );
    },
  );

  app.put(
    '/profiles/:id/markers',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: { tags, summary: 'Replace the marker values of a pending profile (the marker entry form)', params: ById, body: UpdateMarkersBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      await assertNotHeld(db, current);
      assertPending(current, 'markers');
      const { markerValues, replicates, version } = request.body;
      const values = await checkProfileMarkerValues(db, current, markerValues);
      const peaks = replicates === undefined ? null : await checkProfileReplicates(db, replicates, values, current.sampleType);
      if (replicates === undefined) await checkStoredReplicates(db, current.id, values);
      return db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const before = await profileSnapshot(t, current.id);
        await updateVersioned(t, profiles, current.id, version, {}, 'profile');
        await writeMarkerValues(t, current.id, values);
        if (peaks) await writeReplicates(t, current.id, peaks.replicates, peaks.codes);
        const after = await profileSnapshot(t, current.id);
        await appendAudit(t, auditActor(request.user), clock, { ...profileAuditTarget(after), action: 'Markers edited', before: before.markerValues, after: after.markerValues });
        // Heights are evidence too (issue 31): a change of them has its own row in the trail.
        if (peaks && JSON.stringify(before.replicates) !== JSON.stringify(after.replicates)) {
          await appendAudit(t, auditActor(request.user), clock, { ...profileAuditTarget(after), action: 'Peak heights edited', before: before.replicates, after: after.replicates });
        }
        return after;
      });
    },
  );

  app.delete(
    '/profiles/:id',
    {
      config: { access: { entity: 'Profiles', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a pending or rejected profile', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      await assertNotHeld(db, current);
      if (current.status === 'approved') throw new Conflict(`Profile ${current.profileId} is approved; reset it to pending before deleting it.`);
      const hitsDeleted = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const before = await profileSnapshot(t, current.id);
        // The hits that name it go with it (a pending profile may still be named by decided hits after a reset).
        const deleted = await deleteHitsOf(t, current.id, { actor: auditActor(request.user), clock });
        // A profile sent up is expunged at the upper level too: its outbox entry commits with the deletion.
        await queueUpload(t, clock, current.id, 'delete');
        await t.delete(profiles).where(eq(profiles.id, current.id));
        await appendAudit(t, auditActor(request.user), clock, { ...profileAuditTarget(current), action: 'Deleted', before });
        return deleted.length;
      });
      events?.publish(current.organizationId, 'profiles');
      if (hitsDeleted > 0) events?.publish(current.organizationId, 'hits');
      return reply.code(204).send(null);
    },
  );
};
