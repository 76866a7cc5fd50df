import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, profiles } from '../../../server/db/schema';
import { parsePastedProfile } from '../../../src/keyboard-search/paste-profile';
import { SearchResults } from '../../../src/keyboard-search/search-results';
import { CODIS_PROFILE as PLANTED, matchingWorld, type MatchingWorld } from '../hits/hit-fixtures';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let world: MatchingWorld;
let t: MatchingWorld['t'];
let orgId: string;
let caseId: string;
let analystToken: string;
const profileIds = {} as Record<'planted' | 'other', string>;

beforeAll(async () => {
  world = await matchingWorld('KB-1');
  ({ t, orgId, caseId } = world);
  // Profiles Read lets a user search; the chemistries come from the general list (chemistries Read).
  analystToken = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Populations: ['Read'], AutosomalChemistries: ['Read'] });
  profileIds.planted = await world.approveThroughApi('REF-PLANTED', PLANTED);
  profileIds.other = await world.approveThroughApi('REF-OTHER', { ...PLANTED, D3S1358: ['17', '18'], vWA: ['14'], FGA: ['19', '20'] });
}, 90_000);
afterAll(() => t.close());

const asAnalyst = async () => renderScreen(`/${orgId}/keyboard-search`, { t, token: analystToken, me: await meOf(t, analystToken) });

/**
 * What a search could write: profiles, their markers, and keyboard-search audit rows. (Approving the
 * planted profiles runs the database search in the background, which adds hits and their audit rows.)
 */
async function stored() {
  const db = t.database.db;
  const [p] = await db.select({ n: count() }).from(profiles);
  // Marker values stored: byte 0 of a packed genotype is its marker count (server/db/genotype-codec.ts).
  const [m] = await db.select({ n: sql<number>`coalesce(sum(get_byte(${profiles.genotype}, 0)), 0)::int` }).from(profiles);
  const [a] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.entity, 'KeyboardSearch'));
  return { profiles: p!.n, markers: m!.n, searches: a!.n };
}

async function chooseGlobalFiler() {
  const chemistry = await screen.findByLabelText('Chemistry');
  await userEvent.selectOptions(chemistry, within(chemistry).getByRole('option', { name: 'GlobalFiler' }));
  return screen.findByRole('group', { name: 'GlobalFiler' });
}

describe('the keyboard search', () => {
  it('finds a planted profile from a pasted CODIS-like profile, with its LR over the chosen population, and stores nothing', async () => {
    const before = await stored();
    await asAnalyst();
    expect(await screen.findByRole('heading', { level: 1, name: 'Keyboard search' })).toBeInTheDocument();
    const grid = within(await chooseGlobalFiler());

    await userEvent.click(screen.getByLabelText('Paste a profile'));
    await userEvent.paste(Object.entries(PLANTED).map(([m, alleles]) => `${m} ${alleles.join(',')}`).join('\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Fill the grid' }));
    expect(grid.getByLabelText('D3S1358')).toHaveValue('15, 16');
    expect(grid.getByLabelText('TH01')).toHaveValue('6, 9.3');
    expect(grid.getByLabelText('TPOX')).toHaveValue('8');

    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.selectOptions(screen.getByLabelText('Stringency'), 'high');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    const answer = within(await screen.findByRole('region', { name: 'Possible hits' }));
    const row = within(answer.getByRole('link', { name: 'REF-PLANTED' }).closest('tr')!);
    expect(answer.getByRole('link', { name: 'REF-PLANTED' })).toHaveAttribute('href', `/${orgId}/cases/${caseId}/profiles/${profileIds.planted}`);
    const cells = row.getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 4)).toEqual(['KB-1', 'Met', '13', '0']);
    expect(cells[4]).toMatch(/over FBI 2015 Caucasian: \d+\.\d{2}% \(CI \d\.\d{2}e\+\d+\)/);
    // The unrelated profile differs at three markers: not a high-stringency match.
    const other = answer.queryByRole('link', { name: 'REF-OTHER' });
    if (other) expect(within(other.closest('tr')!).getAllByRole('cell')[1]).toHaveTextContent('Not met');

    const after = await stored();
    expect(after).toEqual({ ...before, searches: before.searches + 1 });
    const [row0] = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'KeyboardSearch'));
    expect(JSON.stringify(row0)).not.toContain('9.3');
  });

  it('offers the analyses of the chemistry\'s kind, the same-source one ticked and kinship not, and runs the ones ticked', async () => {
    await asAnalyst();
    await chooseGlobalFiler();
    const analyses = within(await screen.findByRole('group', { name: 'Analyses' }));
    expect(await analyses.findByRole('checkbox', { name: 'Identity' })).toBeChecked();
    expect(analyses.getByRole('checkbox', { name: 'Full siblings' })).not.toBeChecked();
    expect(analyses.queryByRole('checkbox', { name: 'Paternity trio' })).toBeNull();

    await userEvent.click(screen.getByLabelText('Paste a profile'));
    await userEvent.paste(Object.entries(PLANTED).map(([m, alleles]) => `${m} ${alleles.join(',')}`).join('\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Fill the grid' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const planted = () => within(screen.getByRole('link', { name: 'REF-PLANTED' }).closest('tr')!).getAllByRole('cell')[4]!;
    await screen.findByRole('region', { name: 'Possible hits' });
    expect(planted()).toHaveTextContent('Identity over FBI 2015 Caucasian');
    expect(planted()).not.toHaveTextContent('Full siblings');

    await userEvent.click(analyses.getByRole('checkbox', { name: 'Full siblings' }));
    await userEvent.click(analyses.getByRole('checkbox', { name: 'Identity' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(planted()).toHaveTextContent('Full siblings over FBI 2015 Caucasian'));
    expect(planted()).not.toHaveTextContent('Identity');
  });

  it('says how many more candidates were found than the answer lists', () => {
    render(<SearchResults orgId={orgId} answer={{ candidates: [], truncated: true, candidateCount: 4_031, notShown: 4_031, candidateLimit: 200, scanLimit: 256, searchedProfiles: 1_000_000, chance: [], queuePosition: 0 }} />);
    expect(screen.getByText('4,031 more candidates not shown')).toBeInTheDocument();
    expect(screen.queryByText(/waited for a search thread/)).toBeNull();
  });

  it('says when the search waited for a search thread, and its place in the queue', () => {
    render(<SearchResults orgId={orgId} answer={{ candidates: [], truncated: false, candidateCount: 0, notShown: 0, candidateLimit: 200, scanLimit: 256, searchedProfiles: 1_000_000, chance: [], queuePosition: 2 }} />);
    expect(screen.getByText('The search waited for a search thread: it was number 2 in the queue.')).toBeInTheDocument();
  });

  it('fills the grid from a multi-line paste into a marker field, in the CSV shape with a header', async () => {
    await asAnalyst();
    const grid = within(await chooseGlobalFiler());
    await userEvent.click(grid.getByLabelText('CSF1PO'));
    await userEvent.paste('Marker,Allele1,Allele2\nvWA,16,17\nFGA,21,24\n');
    expect(grid.getByLabelText('vWA')).toHaveValue('16, 17');
    expect(grid.getByLabelText('FGA')).toHaveValue('21, 24');
    expect(grid.getByLabelText('CSF1PO')).toHaveValue('');
  });

  it('checks each field with the allele rules and sends nothing while one is wrong', async () => {
    const before = await stored();
    await asAnalyst();
    const grid = within(await chooseGlobalFiler());
    await userEvent.type(grid.getByLabelText('D3S1358'), '15, X');
    await userEvent.tab();
    expect(await grid.findByText('D3S1358: X is only valid at Amelogenin')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Correct D3S1358 first.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Possible hits' })).toBeNull();
    expect(await stored()).toEqual(before);
  });

  it('says which pasted markers the chemistry does not know', async () => {
    await asAnalyst();
    await chooseGlobalFiler();
    await userEvent.click(screen.getByLabelText('Paste a profile'));
    await userEvent.paste('D3S1358 15,16\nXYZ123 7,8');
    await userEvent.click(screen.getByRole('button', { name: 'Fill the grid' }));
    expect(await screen.findByText('Marker XYZ123 is invalid')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('D3S1358')).toHaveValue('15, 16'));
  });
});

describe('parsePastedProfile', () => {
  const kit = [
    { id: 'm1', name: 'D3S1358' },
    { id: 'm2', name: 'vWA' },
    { id: 'm3', name: 'Amelogenin' },
  ];
  it('reads both shapes, any case, tabs and semicolons, and skips a header', () => {
    expect(parsePastedProfile('Marker,Allele1,Allele2\nd3s1358,15,16\nVWA\t17\t18\nAMEL X;Y', kit)).toEqual({ texts: { m1: '15, 16', m2: '17, 18', m3: 'X, Y' }, problems: [] });
    expect(parsePastedProfile('D3S1358 15,16\r\n\r\nvWA 17', kit)).toEqual({ texts: { m1: '15, 16', m2: '17' }, problems: [] });
  });
  it('names each marker it does not know', () => {
    expect(parsePastedProfile('TH01 6,7\nvWA 17', kit)).toEqual({ texts: { m2: '17' }, problems: ['Marker TH01 is invalid'] });
  });
});
