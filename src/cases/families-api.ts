import type { Analysis } from '../../core/schemas/analyses';
import type { AnalysisSummary } from '../../core/schemas/analysis-groups';
import type { Family, FamilyInput, FamilySearchAnswer } from '../../core/schemas/families';
import type { Population } from '../../core/schemas/populations';
import type { Profile } from '../../core/schemas/profiles';
import { decidedFamily, type DecidedFamily, type FamilyDecisionRequest } from '../../machines/familyDecision.machine';
import type { ReviewCalls } from '../../machines/reviewDecision.machine';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

/** The analysis group whose pedigree analyses are the family shapes (server/genetics/seed-analyses/pedigree-analyses.ts). */
export const MISSING_PERSONS_GROUP = 'Missing persons';

/** What the family form offers: the family shapes, the case's autosomal profiles and the populations a search may use. */
export interface FamilyChoices {
  analyses: AnalysisSummary[];
  profiles: Profile[];
  populations: Population[];
}


/** The calls of a case's missing-person families (issue 16; server/http/families). */
export function familiesApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  const byCase = (caseId: string) => ({ params: { path: { caseId } } });
  /** The active pedigree analyses of the Missing persons group; none when the group is missing. */
  const familyShapes = async (): Promise<AnalysisSummary[]> => {
    const groups = await unwrap(api.GET('/api/analysis-groups', { params: { query: { pageSize: 100, search: MISSING_PERSONS_GROUP } } }));
    const group = groups.items.find((g) => g.name === MISSING_PERSONS_GROUP);
    if (!group) return [];
    const list = await unwrap(api.GET('/api/analysis-groups/{id}/analyses', { params: { path: { id: group.id }, query: { pageSize: 100, sort: 'name:asc' } } }));
    return list.items.filter((a) => a.kind === 'Pedigree' && a.active);
  };
  return {
    list: (caseId: string): Promise<Family[]> => unwrap(api.GET('/api/cases/{caseId}/families', byCase(caseId))),
    add: (caseId: string, body: FamilyInput): Promise<Family> => unwrap(api.POST('/api/cases/{caseId}/families', { ...byCase(caseId), body })),
    update: (id: string, body: FamilyInput & { version: number }): Promise<Family> => unwrap(api.PUT('/api/families/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/families/{id}', byId(id))).then(() => undefined),
    activate: (id: string, version: number): Promise<FamilySearchAnswer> => unwrap(api.POST('/api/families/{id}/activate', { ...byId(id), body: { version } })),
    deactivate: (id: string, version: number): Promise<Family> => unwrap(api.POST('/api/families/{id}/deactivate', { ...byId(id), body: { version } })),
    /** The pedigree analysis: its roles, pedigree and threshold. */
    analysis: (id: string): Promise<Analysis> => unwrap(api.GET('/api/analyses/{id}', byId(id))),
    /** What the form offers for a case of organization `organizationId`. */
    choices: async (caseId: string, organizationId: string): Promise<FamilyChoices> => {
      const autosomal = JSON.stringify({ kind: 'Autosomal' });
      const [analyses, profiles, populations] = await Promise.all([
        familyShapes(),
        unwrap(api.GET('/api/cases/{caseId}/profiles', { params: { path: { caseId }, query: { pageSize: 500, sort: 'profileId:asc', filter: autosomal } } })),
        unwrap(api.GET('/api/organizations/{orgId}/populations', { params: { path: { orgId: organizationId }, query: { pageSize: 500, sort: 'name:asc', filter: autosomal } } })),
      ]);
      return { analyses, profiles: profiles.items, populations: populations.items.filter((p) => p.statisticsUploadedAt !== null && !p.synthetic) };
    },
  };
}

export type FamilyCalls = ReturnType<typeof familiesApi>;

/** The family decision machine's calls (machines/familyDecision): each answers with the family as it now is. */
export function familyDecisionCalls(calls: FamilyCalls, caseId: string): ReviewCalls<DecidedFamily, FamilyDecisionRequest> {
  return {
    transition: async ({ family, action }) => {
      if (action === 'activate') {
        const { family: activated, searchedProfiles, hitsAdded } = await calls.activate(family.id, family.version);
        return { ...decidedFamily(activated), lastSearch: { searchedProfiles, hitsAdded } };
      }
      if (action === 'deactivate') return decidedFamily(await calls.deactivate(family.id, family.version));
      await calls.remove(family.id);
      return { ...family, deleted: true };
    },
    reload: async (id) => {
      const found = (await calls.list(caseId)).find((f) => f.id === id);
      if (!found) throw { status: 404, serverMessage: 'This family no longer exists.' };
      return decidedFamily(found);
    },
  };
}
