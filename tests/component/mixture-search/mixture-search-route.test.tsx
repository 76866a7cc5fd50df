/**
 * Issue 17 end to end on the in-process server: the profile view of a forensic stain links to its mixture search
 * (for users who may read profiles and analyses), and the page searches the organization's references with the
 * seed mixture analyses and the real LR ranking.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODIS_PROFILE, matchingWorld, type MatchingWorld } from '../hits/hit-fixtures';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 60_000 });

/** A second person on the same markers: the stain holds both (a two-person mixture, nothing dropped out). */
const OTHER: Record<string, string[]> = {
  CSF1PO: ['11'], D3S1358: ['14', '17'], D5S818: ['13'], D7S820: ['9', '11'], D8S1179: ['12'],
  D13S317: ['8', '12'], D16S539: ['12'], D18S51: ['13', '15'], D21S11: ['28'], FGA: ['22'],
  TH01: ['7'], TPOX: ['11'], vWA: ['18'],
};
const STAIN = Object.fromEntries(Object.entries(CODIS_PROFILE).map(([m, alleles]) => [m, [...new Set([...alleles, ...OTHER[m]!])].sort((a, b) => Number(a) - Number(b))]));

let world: MatchingWorld;
const tokens = {} as Record<'analyst' | 'reader', string>;
const ids = {} as Record<'stain' | 'reference' | 'offender', string>;

beforeAll(async () => {
  world = await matchingWorld('MX-1');
  tokens.analyst = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Markers: ['Read'], Analyses: ['Read'], Populations: ['Read'], AutosomalChemistries: ['Read'] });
  tokens.reader = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Markers: ['Read'] });
  ids.offender = await world.approveThroughApi('OFF-CONTRIBUTOR', CODIS_PROFILE, 'Convicted Offender');
  ids.reference = await world.approveThroughApi('REF-1', CODIS_PROFILE, 'Reference');
  ids.stain = await world.approveThroughApi('STAIN-1', STAIN, 'Forensic Mixture');
}, 180_000);
afterAll(() => world.t.close());

const open = async (who: keyof typeof tokens, profileId: string) =>
  renderScreen(`/${world.orgId}/cases/${world.caseId}/profiles/${profileId}`, { t: world.t, token: tokens[who], me: await meOf(world.t, tokens[who]) });

describe('the mixture search of a forensic stain', () => {
  it('is linked from the stain’s profile view only, for users who may read analyses', async () => {
    const asReader = await open('reader', ids.stain);
    expect(await screen.findByRole('heading', { level: 1, name: /STAIN-1/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Mixture search' })).toBeNull();
    asReader.unmount();
    const reference = await open('analyst', ids.reference);
    expect(await screen.findByRole('heading', { level: 1, name: /REF-1/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Mixture search' })).toBeNull();
    reference.unmount();
    await open('analyst', ids.stain);
    expect(await screen.findByRole('link', { name: 'Mixture search' })).toHaveAttribute('href', `/${world.orgId}/cases/${world.caseId}/profiles/${ids.stain}/mixture-search`);
  });

  it('opens with the stain as the first replicate and ranks the contributor among the offenders with the seed analysis', async () => {
    const { current } = await open('analyst', ids.stain);
    await userEvent.click(await screen.findByRole('link', { name: 'Mixture search' }));
    expect(current()).toBe(`/${world.orgId}/cases/${world.caseId}/profiles/${ids.stain}/mixture-search`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Mixture search' })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(await crumbs.findByText('Mixture search')).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Evidence' })).toHaveTextContent('Replicate 1: STAIN-1 (case MX-1)');
    const analysis = screen.getByLabelText('Mixture analysis');
    expect(within(analysis).getAllByRole('option').map((o) => o.textContent)).toEqual(['Mixture, 2 contributors', 'Mixture, 3 contributors', 'Partial profile (1 contributor)']);
    expect(analysis).toHaveDisplayValue('Mixture, 2 contributors');

    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const answer = within(await screen.findByRole('region', { name: 'Candidates' }, { timeout: 30_000 }));
    expect(answer.getByText('the candidate and 1 unknown')).toBeInTheDocument();
    expect(answer.getByText('2 unknowns')).toBeInTheDocument();
    const row = within(answer.getByRole('link', { name: 'OFF-CONTRIBUTOR' }).closest('tr')!);
    const cells = row.getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 3)).toEqual(['1', 'MX-1', 'Convicted Offender']);
    // Both contributors' alleles seen: the contributor explains the stain far better than a random person.
    expect(Number(cells[4])).toBeGreaterThan(2);
    expect(cells[3]).toMatch(new RegExp(`^\\d\\.\\d{2} × 10${Math.floor(Number(cells[4]))}$`));
    expect(cells[6]).toBe('13');
    // The reference is not of a searched sample type, and the stain is never its own candidate.
    expect(answer.queryByRole('link', { name: 'REF-1' })).toBeNull();
    expect(answer.queryByRole('link', { name: 'STAIN-1' })).toBeNull();
  });
});

describe('the mixture search of a typed mixture', () => {
  const openKeyboard = async (who: keyof typeof tokens) => renderScreen(`/${world.orgId}/keyboard-search`, { t: world.t, token: tokens[who], me: await meOf(world.t, tokens[who]) });

  it('is linked from the keyboard search for users who may read analyses, and opens on a typed first replicate', async () => {
    const asReader = await openKeyboard('reader');
    expect(await screen.findByRole('heading', { level: 1, name: 'Keyboard search' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Mixture search (a typed mixture)' })).toBeNull();
    asReader.unmount();

    const { current } = await openKeyboard('analyst');
    const link = await screen.findByRole('link', { name: 'Mixture search (a typed mixture)' });
    expect(link).toHaveAttribute('href', `/${world.orgId}/mixture-search`);
    await userEvent.click(link);
    expect(current()).toBe(`/${world.orgId}/mixture-search`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Mixture search' })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(await crumbs.findByText('Keyboard search')).toBeInTheDocument();
    expect(crumbs.getByText('Mixture search')).toBeInTheDocument();
    const evidence = within(await screen.findByRole('group', { name: 'Evidence' }));
    expect(evidence.getByRole('group', { name: 'Replicate 1 (typed)' })).toBeInTheDocument();
  });
});
