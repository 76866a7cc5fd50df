import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyses, analysisGroups, searchRules } from '../../../server/db/schema';
import { addProfile, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
beforeAll(async () => {
  w = await createProfileWorld();
}, 60_000);
afterAll(() => w.t.close());

describe('the profile view names the search rules of its sample type (ARCHITECTURE.md "Search policy")', () => {
  it('says that a profile whose sample type no rule names is searched by no rule, and names the rules once one does', async () => {
    const profile = await addProfile(w, 'RULES-1');
    const first = await openAs(w, 'reader', `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
    expect(await screen.findByText('No search rule names the sample type Reference: this profile is searched by no rule.')).toBeInTheDocument();
    first.unmount();

    const db = w.t.database.db;
    const [group] = await db.insert(analysisGroups).values({ name: 'Identity' }).returning();
    const [analysis] = await db.insert(analyses).values({ name: 'Identity', label: '', kind: 'Computational', profileKind: 'Autosomal', roles: ['Evidence', 'Reference'], threshold: 1e6, analysisGroupId: group!.id, active: true }).returning();
    await db.insert(searchRules).values([
      { name: 'References against stains', searchingSampleTypes: ['Reference'], searchedSampleTypes: ['Forensic, Unknown'], analysisId: analysis!.id, stringency: 'moderate' },
      { name: 'Stains against references', searchingSampleTypes: ['Forensic, Unknown'], searchedSampleTypes: ['Reference'], analysisId: analysis!.id, stringency: 'moderate' },
    ]);
    await openAs(w, 'reader', `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
    const rules = await screen.findByRole('region', { name: 'Search rules' });
    expect(await within(rules).findByText('Searched on approval by: References against stains')).toBeInTheDocument();
    expect(within(rules).getByText('Found by the searches of: Stains against references')).toBeInTheDocument();
  });
});
