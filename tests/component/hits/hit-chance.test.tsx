/** Issue 12: a hit shows the rule that found it, every population side by side, its expected chance hits and p-value, synthetic figures labelled. */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SYNTHETIC_LABEL } from '../../../core/chance-display';
import { FORENSIC_RULE } from '../../helpers/hit-figures';
import { meOf, renderScreen } from '../screen-fixtures';
import { CODIS_PROFILE, matchingWorld, type MatchingWorld } from './hit-fixtures';

// AG Grid's first load and KaTeX in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let world: MatchingWorld;
let token: string;

beforeAll(async () => {
  world = await matchingWorld('CASE-CHANCE-1');
  token = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Analyses: ['Read'], Markers: ['Read'], Hits: ['Read', 'Publish'] });
}, 90_000);
afterAll(() => world.t.close());

const open = async (path: string) => renderScreen(path, { t: world.t, token, me: await meOf(world.t, token) });
const SYNTHETIC = 'Synthetic demo population (not for casework)';

describe('HitView of a hit a search rule found', () => {
  it('names the rule and the match, and shows every population side by side with its p-value and expected chance hits, the synthetic one labelled', async () => {
    const id = await world.ruleHit('SIDE');
    await open(`/${world.orgId}/hits/${id}`);
    expect(await screen.findByText(FORENSIC_RULE)).toBeInTheDocument();
    expect(screen.getByText(FORENSIC_RULE).closest('p')).toHaveTextContent(`Found by the search rule ${FORENSIC_RULE} · Identity (the same source)`);

    const table = within(within(await screen.findByRole('region', { name: 'Populations' })).getByRole('table'));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Population', 'Likelihood ratio', 'log10 LR', 'p-value', 'Expected chance hits']);
    const fbi = within(table.getByRole('rowheader', { name: /^FBI 2015 Caucasian/ }).closest('tr')!);
    expect(fbi.getByRole('rowheader')).toHaveTextContent(/^FBI 2015 Caucasianreported$/);
    expect(fbi.getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '99.99% (CI 2.50e+15)',
      '15.40', // log10(2.5e15)
      'p ≤ 1.2e-20between 1.2e-20 and 1.2e-20',
      // 1,000,000 profiles × 3e-10 = 0.0003
      'in 1,000,000 profiles, 0.0003 chance hits expected at this threshold',
    ]);
    const synthetic = within(table.getByRole('rowheader', { name: new RegExp(`^${SYNTHETIC.replace(/[()]/g, '\\$&')}`) }).closest('tr')!);
    expect(synthetic.getByRole('rowheader')).toHaveTextContent(`${SYNTHETIC}${SYNTHETIC_LABEL}`);
    expect(synthetic.getAllByRole('cell').map((c) => c.textContent)).toEqual(['99.99% (CI 3.10e+16)', '16.49', 'p ≤ 4.5e-22between 4.4e-22 and 4.5e-22', 'in 1,000,000 profiles, 0.0002 chance hits expected at this threshold']);

    // The reported figures: FBI's p-value; the stringency's expected chance hits, the synthetic population among those it came from.
    expect(screen.getByText(/^p-value: /)).toHaveTextContent(/^p-value: p ≤ 1\.2e-20$/);
    expect(screen.getByText(/^Expected chance hits: /)).toHaveTextContent(`Expected chance hits: in 1,000,000 profiles, 0.0003 chance hits expected at this threshold${SYNTHETIC_LABEL}`);
    expect(screen.getByText('Probability', { selector: 'dt' }).nextSibling).toHaveTextContent(/^99\.99% \(CI 2\.50e\+15\)$/);
    // The per-marker table stays, over the reported population.
    expect(await screen.findByRole('table', { name: 'Markers over FBI 2015 Caucasian' })).toBeInTheDocument();
  });

  it('shows an identity hit’s stringency: markers compared, mismatches allowed, the chance an unrelated profile meets it and the chance hits expected', async () => {
    const id = await world.ruleHit('STRICT');
    await open(`/${world.orgId}/hits/${id}`);
    const block = within(await screen.findByRole('region', { name: 'Stringency' }));
    const value = (term: string) => block.getByText(term, { selector: 'dt' }).nextSibling;
    expect(value('Stringency')).toHaveTextContent('Moderate');
    expect(value('Markers compared')).toHaveTextContent('13 (at least 8 required)');
    expect(value('Mismatches')).toHaveTextContent('0 (at most 0 allowed)');
    expect(value('Chance an unrelated profile meets it')).toHaveTextContent(`3.0e-10${SYNTHETIC_LABEL}`);
    expect(value('Expected chance hits')).toHaveTextContent(`in 1,000,000 profiles, 0.0003 chance hits expected at this threshold${SYNTHETIC_LABEL}`);
  });

  it('names no rule, populations or stringency for a hit recorded before search rules', async () => {
    const id = await world.identityHit('BEFORE');
    await open(`/${world.orgId}/hits/${id}`);
    expect(await screen.findByRole('table', { name: 'Markers over FBI 2015 Caucasian' })).toBeInTheDocument();
    expect(screen.queryByText(/Found by (the search rule|a search rule)/)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Populations' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Stringency' })).toBeNull();
    expect(screen.queryByText(SYNTHETIC_LABEL)).toBeNull();
  });
});

describe('the hit lists', () => {
  it('show the rule and the chance hits expected, the reported population with how many more, and label synthetic figures; the strongest hit comes first', async () => {
    await world.recordHit({
      analysisId: world.analysisIds.Identity!,
      populationId: world.populationId,
      combinedIndex: 9e20,
      markerCount: 13,
      nonExclusionMarkerCount: null,
      profiles: [
        { role: 'Evidence', profileId: await world.approvedProfile('STRONG-E', CODIS_PROFILE) },
        { role: 'Reference', profileId: await world.approvedProfile('STRONG-R', CODIS_PROFILE) },
      ],
    });
    // Found after the strongest: a list sorted by date would show it first.
    await world.ruleHit('LISTED');
    const view = await open(`/${world.orgId}/hits/all`);
    const grid = within(await screen.findByRole('grid'));
    const row = within((await grid.findByText('LISTED-E (CASE-CHANCE-1) · LISTED-R (CASE-CHANCE-1)', {}, { timeout: 10_000 })).closest('[role="row"]') as HTMLElement);
    expect(grid.getAllByRole('columnheader').map((h) => h.textContent?.trim())).toEqual(['Date', 'Analysis', 'Probability', 'Population', 'Profiles', 'Chance hits expected', 'Rule', 'Status', 'Download']);
    expect(row.getByText(FORENSIC_RULE)).toBeInTheDocument();
    expect(row.getByText('0.0003')).toBeInTheDocument();
    expect(row.getByText('FBI 2015 Caucasian +1 more')).toBeInTheDocument();
    expect(row.getByText(SYNTHETIC_LABEL).closest('[role="gridcell"]')).toHaveTextContent(`99.99% (CI 2.50e+15)${SYNTHETIC_LABEL}`);

    const rows = grid.getAllByRole('row').filter((r) => r.getAttribute('row-index') !== null);
    const first = rows.sort((a, b) => Number(a.getAttribute('row-index')) - Number(b.getAttribute('row-index')))[0]!;
    expect(first).toHaveTextContent('STRONG-E (CASE-CHANCE-1) · STRONG-R (CASE-CHANCE-1)');
    expect(within(first).getAllByText('–')).toHaveLength(2); // no rule, no chance figures: recorded before search rules
    expect(within(first).queryByText(SYNTHETIC_LABEL)).toBeNull();
    view.unmount();
  });
});
