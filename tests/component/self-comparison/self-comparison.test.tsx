import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODIS_PROFILE, matchingWorld, type MatchingWorld } from '../hits/hit-fixtures';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 60_000 });

let world: MatchingWorld;
let editorToken: string;
let readerToken: string;
const ids = new Map<string, string>();

beforeAll(async () => {
  world = await matchingWorld('QA-1');
  editorToken = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read', 'Edit'], Markers: ['Read'] });
  readerToken = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Markers: ['Read'] });
  // The same person entered twice under two names, and a third copy with one marker typed differently.
  ids.set('SMITH', await world.approveThroughApi('SMITH-JOHN', CODIS_PROFILE));
  ids.set('JONES', await world.approveThroughApi('JONES-PETER', CODIS_PROFILE));
  ids.set('NEAR', await world.approveThroughApi('NEAR-ONE', { ...CODIS_PROFILE, TH01: ['7', '9.3'] }));
  await world.approveThroughApi('STRANGER', { ...CODIS_PROFILE, TH01: ['7', '8'], FGA: ['19', '20'], vWA: ['14'], TPOX: ['11'] });
}, 120_000);
afterAll(() => world.t.close());

const open = async (token: string, path: string) => renderScreen(path, { t: world.t, token, me: await meOf(world.t, token) });

describe('database self-comparison screen', () => {
  it('compares the organization’s profiles of a chemistry and lists the duplicate and near-duplicate pairs with their cases and differing genotypes', async () => {
    await open(editorToken, `/${world.orgId}/profiles/self-comparison`);
    expect(await screen.findByRole('heading', { name: 'Database self-comparison' })).toBeInTheDocument();
    const form = within(await screen.findByRole('form', { name: 'Comparison' }));
    await userEvent.selectOptions(await form.findByLabelText('Chemistry'), 'GlobalFiler (autosomal)');
    await userEvent.clear(form.getByLabelText('Equal markers, at least'));
    await userEvent.type(form.getByLabelText('Equal markers, at least'), '12');
    await userEvent.click(form.getByRole('button', { name: 'Start comparison' }));

    const report = within(await screen.findByRole('region', { name: 'Report' }, { timeout: 15_000 }));
    expect(report.getByRole('status')).toHaveTextContent('GlobalFiler: 4 profiles compared');
    expect(report.getByRole('status')).toHaveTextContent('1 duplicate, 2 near-duplicates (up to 2 differences, at least 12 equal markers)');
    const table = within(await report.findByRole('table', { name: 'Self-comparison pairs' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Kind', 'Profile 1', 'Case 1', 'Profile 2', 'Case 2', 'Equal markers', 'Differing markers (1 / 2)']);
    const rows = table.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    const duplicate = within(rows[0]!).getAllByRole('cell').map((c) => c.textContent);
    expect(duplicate[0]).toBe('Duplicate');
    expect([duplicate[1], duplicate[3]].sort()).toEqual(['JONES-PETER', 'SMITH-JOHN']);
    expect(duplicate.slice(5)).toEqual(['13', '—']);
    const near = within(rows[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(near[0]).toBe('1 difference');
    expect(near[2]).toBe('QA-1');
    expect(near[6]).toMatch(/^TH01: (6, 9\.3 \/ 7, 9\.3|7, 9\.3 \/ 6, 9\.3)$/);
    const link = within(rows[0]!).getByRole('link', { name: 'SMITH-JOHN' });
    expect(link).toHaveAttribute('href', `/${world.orgId}/cases/${world.caseId}/profiles/${ids.get('SMITH')}`);

    await userEvent.selectOptions(report.getByLabelText('Show'), 'Duplicates');
    await vi.waitFor(() => expect(within(report.getByRole('table', { name: 'Self-comparison pairs' })).getAllByRole('row')).toHaveLength(2));
    expect(report.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  });

  it('shows the last report again on opening the screen, and the tab on the profile lists', async () => {
    await open(editorToken, `/${world.orgId}/profiles`);
    const tabs = within(await screen.findByRole('navigation', { name: 'Profile lists' }));
    await userEvent.click(tabs.getByRole('link', { name: 'Self-comparison' }));
    const report = within(await screen.findByRole('region', { name: 'Report' }, { timeout: 10_000 }));
    expect(report.getByRole('status')).toHaveTextContent('1 duplicate, 2 near-duplicates');
  });

  it('offers no self-comparison tab to a user who may only read profiles', async () => {
    await open(readerToken, `/${world.orgId}/profiles`);
    const tabs = within(await screen.findByRole('navigation', { name: 'Profile lists' }));
    expect(tabs.getByRole('link', { name: 'Review' })).toBeInTheDocument();
    expect(tabs.queryByRole('link', { name: 'Self-comparison' })).toBeNull();
  });
});
