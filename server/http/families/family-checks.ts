import { eq, inArray } from 'drizzle-orm';
import type { FamilyInput } from '../../../core/schemas/families';
import type { Db } from '../../db/database';
import { analyses, profiles } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest } from '../errors';
import type { CaseRow } from '../cases/case-access';
import { findVisiblePopulation } from '../populations/visibility';

/**
 * What a family may hold (issue 16), each problem a 400 naming its field: an active pedigree analysis; a profile of
 * this case, autosomal, for each of its roles but the missing person, once; autosomal populations the user may read,
 * never the synthetic demo population (it takes part in no automatic search).
 */
export async function checkFamily(db: Db, user: AuthenticatedUser, found: CaseRow, input: FamilyInput): Promise<void> {
  const [analysis] = await db.select().from(analyses).where(eq(analyses.id, input.analysisId));
  if (!analysis || analysis.kind !== 'Pedigree' || !analysis.pedigree) throw new BadRequest('Choose a pedigree analysis (a family shape).', [{ path: '/analysisId', message: 'Not a pedigree analysis' }]);
  if (!analysis.active) throw new BadRequest(`The pedigree analysis ${analysis.name} is not active.`, [{ path: '/analysisId', message: 'Not active' }]);
  const relativeRoles = analysis.roles.filter((r) => r !== analysis.pedigree!.target);
  const given = input.relatives.map((r) => r.role);
  const missing = relativeRoles.filter((r) => !given.includes(r));
  const unknown = given.filter((r) => !relativeRoles.includes(r));
  const twice = given.filter((r, i) => given.indexOf(r) !== i);
  if (missing.length > 0 || unknown.length > 0 || twice.length > 0) {
    const message = `${analysis.name} needs a profile for each of ${relativeRoles.join(', ')}, once${unknown.length > 0 ? `; it has no role ${unknown.join(', ')}` : ''}.`;
    throw new BadRequest(message, [{ path: '/relatives', message }]);
  }
  const rows = await db.select({ id: profiles.id, name: profiles.profileId, caseId: profiles.caseId, kind: profiles.kind }).from(profiles).where(inArray(profiles.id, input.relatives.map((r) => r.profileId)));
  for (const [i, r] of input.relatives.entries()) {
    const row = rows.find((p) => p.id === r.profileId);
    if (!row || row.caseId !== found.id) throw new BadRequest(`The profile for ${r.role} is not a profile of case ${found.caseNumber}.`, [{ path: `/relatives/${i}/profileId`, message: 'Not in this case' }]);
    if (row.kind !== 'Autosomal') throw new BadRequest(`Profile ${row.name} (${r.role}) is a Y-STR profile; a pedigree needs autosomal profiles.`, [{ path: `/relatives/${i}/profileId`, message: 'Y-STR profile' }]);
  }
  const twiceProfile = input.relatives.find((r, i) => input.relatives.findIndex((x) => x.profileId === r.profileId) !== i);
  if (twiceProfile) throw new BadRequest('One profile cannot stand for two relatives.', [{ path: '/relatives', message: 'A profile placed twice' }]);
  for (const [i, id] of input.populationIds.entries()) {
    const population = await findVisiblePopulation(db, user, id);
    if (population.kind !== 'Autosomal') throw new BadRequest(`Population ${population.name} holds Y-STR haplotypes.`, [{ path: `/populationIds/${i}`, message: 'Not autosomal' }]);
    if (population.synthetic) throw new BadRequest(`${population.name} is the synthetic demo population: it takes part in no automatic search.`, [{ path: `/populationIds/${i}`, message: 'Synthetic' }]);
  }
  if (new Set(input.populationIds).size !== input.populationIds.length) throw new BadRequest('A population is listed twice.', [{ path: '/populationIds', message: 'Listed twice' }]);
}
