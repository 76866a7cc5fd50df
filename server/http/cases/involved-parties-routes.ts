import { asc, eq, inArray, sql } from 'drizzle-orm';
import { InvolvedParty, InvolvedPartyInput } from '../../../core/schemas/cases';
import { appendAudit } from '../../audit/audit-trail';
import { involvedParties, profiles } from '../../db/schema';
import { profileAuditTarget, profileSnapshot } from '../profiles/profile-snapshot';
import { caseChildRoutes, textColumn } from './case-child-routes';

/** cases/{caseId}/involved-parties (spec 2.8: table column Title; issue 18: role, name, identifiers, linked profiles). */
export const involvedPartyRoutes = caseChildRoutes({
  path: 'involved-parties',
  table: involvedParties,
  what: 'involved party',
  auditEntity: 'InvolvedParty',
  input: InvolvedPartyInput,
  item: InvolvedParty,
  toItem: (row) => ({
    id: row.id,
    version: row.version,
    caseId: row.caseId,
    title: row.title,
    role: row.role as InvolvedParty['role'],
    name: row.name,
    identifiers: row.identifiers,
    description: row.description,
    linkedProfiles: [],
    createdAt: row.createdAt.toISOString(),
  }),
  columns: {
    title: textColumn(involvedParties.title),
    role: textColumn(involvedParties.role),
    name: textColumn(involvedParties.name),
    description: textColumn(involvedParties.description),
    createdAt: { expr: involvedParties.createdAt, sortable: true },
  },
  defaultSort: 'title:asc',
  async present(db, items) {
    if (items.length === 0) return items;
    const linked = await db
      .select({ partyId: profiles.involvedPartyId, id: profiles.id, profileId: profiles.profileId })
      .from(profiles)
      .where(inArray(profiles.involvedPartyId, items.map((i) => i.id)))
      .orderBy(asc(sql`lower(${profiles.profileId})`));
    return items.map((item) => ({ ...item, linkedProfiles: linked.filter((p) => p.partyId === item.id).map(({ id, profileId }) => ({ id, profileId })) }));
  },
  // The foreign key would unlink the profiles by itself (on delete set null); done here so each profile's trail says so.
  async beforeDelete(db, row, { actor, clock }) {
    const linked = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.involvedPartyId, row.id));
    for (const { id } of linked) {
      const before = await profileSnapshot(db, id);
      await db.update(profiles).set({ involvedPartyId: null, version: sql`${profiles.version} + 1`, updatedAt: new Date() }).where(eq(profiles.id, id));
      const after = await profileSnapshot(db, id);
      await appendAudit(db, actor, clock, { ...profileAuditTarget(after), action: 'Unlinked from deleted party', before, after });
    }
  },
});
