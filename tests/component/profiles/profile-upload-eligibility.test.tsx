import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODIS_CORE_LOCI } from '../../../core/network/codis-core-loci';
import type { Profile } from '../../../core/schemas/profiles';
import { seedUploadEligibility } from '../../../server/db/seed/upload-eligibility';
import { approve, call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
beforeAll(async () => {
  w = await createProfileWorld();
  await seedUploadEligibility(w.t.database.db);
}, 60_000);
afterAll(() => w.t.close());

/** A profile of `sampleType` typed at `loci` (alleles 11 and 12), pending. */
async function addTyped(profileId: string, sampleType: string, loci: readonly string[]): Promise<Profile> {
  const added = await call<{ items: Profile[] }>(w, 'admin', 'POST', '/api/profiles', {
    caseId: w.caseId,
    chemistryId: w.globalFiler,
    sampleType,
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: w.laboratoryId,
    comments: '',
    profiles: [{ profileId, markerValues: loci.map((m) => ({ markerId: w.markerIds[m]!, alleles: ['11', '12'] })) }],
  });
  return added.items[0]!;
}

const section = () => screen.findByRole('region', { name: 'Upload eligibility' });

describe('the profile view says whether the profile may be uploaded to the upper level (issue 32)', () => {
  it('says an approved offender typed at all 20 core loci is eligible, naming its index', async () => {
    const profile = await addTyped('UP-OFFENDER', 'Convicted Offender', CODIS_CORE_LOCI);
    await approve(w, profile.id);
    await openAs(w, 'reader', `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
    expect(await within(await section()).findByText('Upload to the upper level: eligible (Convicted Offender index).')).toBeInTheDocument();
  });

  it('lists every reason a profile is not eligible', async () => {
    const profile = await addTyped('UP-PARTIAL', 'Arrestee', CODIS_CORE_LOCI.filter((l) => l !== 'TH01' && l !== 'FGA'));
    await openAs(w, 'reader', `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
    const region = await section();
    expect(await within(region).findByText('Not eligible for upload to the upper level:')).toBeInTheDocument();
    expect(within(region).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'The profile is pending: only approved profiles are uploaded',
      'Missing core loci: FGA, TH01 (18 of 20 typed; Arrestee needs all 20)',
    ]);
  });

  it('says a sample type no index takes stays at the laboratory', async () => {
    const profile = await addTyped('UP-ELIMINATION', 'Elimination, Known', CODIS_CORE_LOCI);
    await openAs(w, 'reader', `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
    expect(await within(await section()).findByText('Sample type Elimination, Known is not uploaded to this level')).toBeInTheDocument();
  });
});
