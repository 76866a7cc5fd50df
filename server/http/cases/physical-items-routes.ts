import { eq } from 'drizzle-orm';
import { PhysicalItem, PhysicalItemInput } from '../../../core/schemas/cases';
import { physicalItems, profiles } from '../../db/schema';
import { BadRequest } from '../errors';
import { caseChildRoutes, textColumn } from './case-child-routes';

/** cases/{caseId}/physical-items (spec 2.8: table columns Id, Description; issue 18: collected at, place, by). */
export const physicalItemRoutes = caseChildRoutes({
  path: 'physical-items',
  table: physicalItems,
  what: 'physical item',
  auditEntity: 'PhysicalItem',
  input: PhysicalItemInput,
  item: PhysicalItem,
  toItem: (row) => ({
    id: row.id,
    version: row.version,
    caseId: row.caseId,
    itemId: row.itemId,
    description: row.description,
    collectedAt: row.collectedAt?.toISOString() ?? null,
    collectionPlace: row.collectionPlace,
    collectedBy: row.collectedBy,
    createdAt: row.createdAt.toISOString(),
  }),
  columns: {
    itemId: textColumn(physicalItems.itemId),
    description: textColumn(physicalItems.description),
    collectedAt: { expr: physicalItems.collectedAt, sortable: true },
    collectionPlace: textColumn(physicalItems.collectionPlace),
    collectedBy: textColumn(physicalItems.collectedBy),
    createdAt: { expr: physicalItems.createdAt, sortable: true },
  },
  defaultSort: 'itemId:asc',
  toValues: (input) => ({ ...input, collectedAt: input.collectedAt === null ? null : new Date(input.collectedAt) }),
  duplicate: (input) => new BadRequest(`Item ${input.itemId} already exists in this case`, [{ path: '/itemId', message: 'Already exists in this case' }]),
  async inUse(db, row) {
    const used = await db.select({ profileId: profiles.profileId }).from(profiles).where(eq(profiles.physicalItemId, row.id)).limit(6);
    if (used.length === 0) return null;
    const names = used.slice(0, 5).map((p) => p.profileId).join(', ');
    return `Item ${row.itemId} cannot be deleted: profiles ${names}${used.length > 5 ? ' and others' : ''} were typed from it.`;
  },
});
