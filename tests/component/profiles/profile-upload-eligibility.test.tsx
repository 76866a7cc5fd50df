import { act, render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODIS_CORE_LOCI } from '../../../core/network/codis-core-loci';
import type { Profile } from '../../../core/schemas/profiles';
import type { ProfileUploadEligibility } from '../../../core/schemas/upload-eligibility';
import { instanceSettings } from '../../../server/db/schema';
import { seedUploadEligibility } from '../../../server/db/seed/upload-eligibility';
import { ProfileUploadEligibilityNote } from '../../../src/profiles/profile-upload-eligibility';
import { approve, call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
beforeAll(async () => {
  w = await createProfileWorld();
  await seedUploadEligibility(w.t.database.db);
  // The verdict is shown only on an instance that uploads somewhere (below: one that does not).
  await w.t.database.db.insert(instanceSettings).values({ id: 'instance', name: 'Oslo', level: 'Local', upperUrl: 'https://sdis.example.gov' }).onConflictDoUpdate({ target: instanceSettings.id, set: { name: 'Oslo', level: 'Local', upperUrl: 'https://sdis.example.gov' } });
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

describe('the upload eligibility section without an upper instance (issue 32)', () => {
  const verdict = (upperInstance: boolean): ProfileUploadEligibility => ({ eligible: true, index: 'Convicted Offender', reasons: [], matchProbability: null, upperInstance });

  it('is not shown when this instance names no upper instance, and is when it does', async () => {
    for (const upperInstance of [false, true]) {
      const answer = Promise.resolve(verdict(upperInstance));
      const view = render(<ProfileUploadEligibilityNote profileId="p1" version={1} calls={{ uploadEligibility: () => answer }} />);
      // The answer is in once the promise the note awaits has settled and React has rendered it.
      await act(() => answer);
      if (upperInstance) expect(screen.getByRole('region', { name: 'Upload eligibility' })).toHaveTextContent('Upload to the upper level: eligible (Convicted Offender index).');
      else expect(screen.queryByRole('region', { name: 'Upload eligibility' })).not.toBeInTheDocument();
      view.unmount();
    }
  });
});
