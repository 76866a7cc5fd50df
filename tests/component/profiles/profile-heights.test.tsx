import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import { call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

// Issue 31: the profile view shows the peak heights per replicate, flags a height under the analytical threshold,
// notes a size nobody gave, and says that CMF leaves the heights out (sizes from the kit: tests/unit/server/http/profile-heights.test.ts).
vi.setConfig({ testTimeout: 20_000 });

let w: ProfileWorld;
let id: string;

beforeAll(async () => {
  w = await createProfileWorld();
  const m = w.markerIds;
  const added = await call<{ items: Profile[] }>(w, 'admin', 'POST', '/api/profiles', {
    caseId: w.caseId,
    chemistryId: w.globalFiler,
    sampleType: 'Forensic Mixture',
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: w.laboratoryId,
    comments: '',
    profiles: [
      {
        profileId: 'STAIN-7',
        markerValues: [{ markerId: m.D3S1358, alleles: ['15', '16'] }],
        replicates: [
          { name: 'run-A.fsa', markers: [{ markerId: m.D3S1358, peaks: [{ allele: '15', height: 812, size: 118.52 }, { allele: '16', height: 40, size: null }] }] },
          { name: 'run-B.fsa', markers: [{ markerId: m.D3S1358, peaks: [{ allele: '15', height: 455, size: null }] }] },
        ],
      },
    ],
  });
  id = added.items[0]!.id;
  const kit = await call<{ version: number }>(w, 'admin', 'GET', `/api/chemistries/${w.globalFiler}`);
  await call(w, 'admin', 'PUT', `/api/autosomal-chemistries/${w.globalFiler}/thresholds`, { kit: 50, dyes: {}, version: kit.version });
}, 60_000);
afterAll(() => w.t.close());

describe('profile view: peak heights', () => {
  it('shows each replicate with its heights and sizes, the flag under the threshold, and the CMF note', async () => {
    await openAs(w, 'analyst', `/${w.orgId}/cases/${w.caseId}/profiles/${id}/markers`);
    const section = await screen.findByRole('region', { name: 'Peak heights of STAIN-7' }, { timeout: 8000 });
    const tables = within(section).getAllByRole('table');
    expect(tables.map((t) => within(t).getByText(/^Replicate/).textContent)).toEqual(['Replicate 1: run-A.fsa', 'Replicate 2: run-B.fsa']);
    const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    // This world's GlobalFiler has no allele bins: a size the entry left out stays empty, and the marker says why.
    expect(rows(tables[0]!)).toEqual(['D3S135815812118.52', '1640 (under the analytical threshold)—']);
    expect(rows(tables[1]!)).toEqual(['D3S135815455—']);
    expect(within(tables[1]!).getByRole('rowheader', { name: 'D3S1358' })).toHaveAttribute('title', 'No size for 15: the kit GlobalFiler has no allele table for D3S1358');
    expect(within(section).getByText(/The CMF download leaves the peak heights out/)).toBeInTheDocument();
  });
});
