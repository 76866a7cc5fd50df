/** HitView states the calculator's parentage conclusion (GENETICS.md "Parentage with inconsistencies"). */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { meOf, renderScreen } from '../screen-fixtures';
import { matchingWorld, type MatchingWorld } from './hit-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let world: MatchingWorld;
let token: string;

beforeAll(async () => {
  world = await matchingWorld('CASE-SIB-1');
  token = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Analyses: ['Read'], Markers: ['Read'], Hits: ['Read'] });
}, 90_000);
afterAll(() => world.t.close());

describe('HitView of a Parent–child hit on a full-sibling pair', () => {
  it('reads Excluded with the inconsistent markers, though the hit was stored with a combined index', async () => {
    const child = await world.approvedProfile('SIB-X', { D3S1358: ['15', '16'], vWA: ['16', '17'], FGA: ['21', '24'], TH01: ['6', '9.3'], TPOX: ['8'], D18S51: ['14', '17'] });
    const parent = await world.approvedProfile('SIB-Y', { D3S1358: ['17', '18'], vWA: ['14', '18'], FGA: ['21', '22'], TH01: ['6', '7'], TPOX: ['8', '11'], D18S51: ['14', '17'] });
    const id = await world.recordHit({
      analysisId: world.analysisIds['Parent–child']!,
      populationId: world.populationId,
      combinedIndex: 70.7,
      markerCount: 6,
      nonExclusionMarkerCount: null,
      profiles: [
        { role: 'Child', profileId: child },
        { role: 'Alleged parent', profileId: parent },
      ],
    });
    renderScreen(`/${world.orgId}/hits/${id}`, { t: world.t, token, me: await meOf(world.t, token) });
    const conclusion = await screen.findByRole('status', { name: 'Parentage conclusion' });
    expect(conclusion).toHaveTextContent('Excluded: 2 markers inconsistent with the relationship (D3S1358, vWA), more than the 1 allowed');
    expect(within(await screen.findByRole('table', { name: /^Markers/ })).getByRole('rowheader', { name: 'vWA' })).toBeInTheDocument();
  });

  it('says nothing for an analysis that counts no inconsistencies (Identity)', async () => {
    const id = await world.identityHit('SAME');
    renderScreen(`/${world.orgId}/hits/${id}`, { t: world.t, token, me: await meOf(world.t, token) });
    expect(await screen.findByRole('table', { name: /^Markers/ })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Parentage conclusion' })).toBeNull();
  });
});
