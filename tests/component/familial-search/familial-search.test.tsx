import type { SampleType } from '../../../core/schemas/profiles';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../bench/synthetic-profiles';
import { chemistries, hits, markers, profiles } from '../../../server/db/schema';
import { writeMarkerValues } from '../../../server/http/profiles/marker-values';
import { profileSetOf } from '../../../server/hits/record-rule-matches';
import { createAccessGroup, createUser } from '../../helpers/factories';
import { matchingWorld, type MatchingWorld } from '../hits/hit-fixtures';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 60_000 });

const caucasian = fbi2015Population('Caucasian');
let world: MatchingWorld;
let reviewerToken: string;
let readerToken: string;
const ids = new Map<string, string>();

/** A profile of the case with this sample type, entered pending and approved through the API, so the server's matcher indexes it. */
async function approved(adminToken: string, name: string, sampleType: SampleType, genotypes: ReadonlyMap<string, readonly string[]>) {
  const { t, caseId, orgId } = world;
  const db = t.database.db;
  const chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const [row] = await db.insert(profiles).values({ profileId: name, caseId, organizationId: orgId, kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
  const markerValues = [...genotypes].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
  await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
  const res = await t.app.inject({ method: 'POST', url: `/api/profiles/${row!.id}/approve`, headers: { authorization: `Bearer ${adminToken}` }, payload: { markerValues, comments: '', version: row!.version } });
  expect(res.statusCode, res.body).toBe(200);
  ids.set(name, row!.id);
}

beforeAll(async () => {
  world = await matchingWorld('FAM-1');
  const db = world.t.database.db;
  const adminToken = world.t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id);
  reviewerToken = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Markers: ['Read'], Hits: ['Read', 'Publish'], Populations: ['Read'] });
  readerToken = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Markers: ['Read'], Hits: ['Read'] });
  const stain = profileGenerator(caucasian, 42)();
  const strangers = profileGenerator(caucasian, 43);
  await approved(adminToken, 'STAIN', 'Forensic, Unknown', stain);
  await approved(adminToken, 'BROTHER', 'Convicted Offender', siblingOf(stain, caucasian, 10));
  for (let i = 0; i < 6; i++) await approved(adminToken, `OFFENDER-${i}`, 'Convicted Offender', strangers());
}, 120_000);
afterAll(() => world.t.close());

const open = async (token: string, name: string) => renderScreen(`/${world.orgId}/cases/${world.caseId}/profiles/${ids.get(name)}`, { t: world.t, token, me: await meOf(world.t, token) });

describe('familial search on the profile view', () => {
  it('runs a familial search, lists the ranked candidates with their figures, and promotes a ticked one to a pending hit', async () => {
    await open(reviewerToken, 'STAIN');
    const panel = within(await screen.findByRole('region', { name: 'Familial search' }));
    await userEvent.selectOptions(await panel.findByLabelText('Search rule'), 'Familial search of offenders and arrestees (full siblings)');
    // The organization's population is ticked by default.
    expect(panel.getByRole('checkbox', { name: 'FBI 2015 Caucasian' })).toBeChecked();
    await userEvent.clear(panel.getByLabelText('Candidates to list (top N)'));
    await userEvent.type(panel.getByLabelText('Candidates to list (top N)'), '5');
    await userEvent.click(panel.getByRole('button', { name: 'Run familial search' }));

    const list = within(await panel.findByRole('region', { name: 'Candidates' }));
    expect(list.getByRole('status')).toHaveTextContent('Full siblings over 7 searched profiles: the 5 strongest candidates');
    const table = within(list.getByRole('table', { name: 'Familial search candidates' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Promote', 'Rank', 'Profile', 'Case', 'Sample type', 'FBI 2015 Caucasian']);
    const rows = table.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    const first = within(rows[0]!);
    expect(first.getByRole('link', { name: 'BROTHER' })).toHaveAttribute('href', `/${world.orgId}/cases/${world.caseId}/profiles/${ids.get('BROTHER')}`);
    const cells = first.getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(1, 4)).toEqual(['1', 'FAM-1', 'Convicted Offender']);
    expect(cells[4]).toMatch(/\d+\.\d{2}% \(CI .+\)p ≤ .+ expected by chance/);

    const promote = list.getByRole('button', { name: /Promote to pending hits/ });
    expect(promote).toBeDisabled();
    await userEvent.click(first.getByRole('checkbox', { name: 'Promote BROTHER' }));
    await userEvent.click(list.getByRole('button', { name: 'Promote to pending hits (1)' }));

    const promoted = within(await panel.findByRole('region', { name: 'Promoted' }));
    expect(promoted.getByRole('status')).toHaveTextContent('1 pending hit was created for review.');
    const [hit] = await world.t.database.db.select().from(hits).where(eq(hits.profileSet, profileSetOf([ids.get('STAIN')!, ids.get('BROTHER')!])));
    expect(promoted.getByRole('link', { name: 'Hit with BROTHER (FAM-1)' })).toHaveAttribute('href', `/${world.orgId}/hits/${hit!.id}`);

    await userEvent.click(promoted.getByRole('button', { name: 'Back to the candidates' }));
    const again = within(await panel.findByRole('region', { name: 'Candidates' }));
    const brother = within(again.getByRole('link', { name: 'BROTHER' }).closest('tr')!);
    expect(brother.getByText('Hit')).toBeInTheDocument();
    expect(brother.queryByRole('checkbox')).toBeNull();
  });

  it('refuses to run without a population, and sends nothing', async () => {
    await open(reviewerToken, 'STAIN');
    const panel = within(await screen.findByRole('region', { name: 'Familial search' }));
    // Every population unticked: the form refuses before anything is sent.
    await userEvent.click(await panel.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(panel.getByRole('button', { name: 'Run familial search' }));
    expect(await panel.findByText('Choose at least one population.')).toBeInTheDocument();
    expect(panel.queryByRole('region', { name: 'Candidates' })).toBeNull();
  });

  it('is not shown without Hits Publish, nor for a sample type no on-request rule searches with', async () => {
    const reader = await open(readerToken, 'STAIN');
    expect(await screen.findByRole('heading', { level: 1, name: /STAIN/ })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Familial search' })).toBeNull();
    reader.unmount();
    await open(reviewerToken, 'BROTHER');
    expect(await screen.findByRole('heading', { level: 1, name: /BROTHER/ })).toBeInTheDocument();
    // The options are read, and no rule searches with an offender's profile.
    await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('region', { name: 'Familial search' })).toBeNull();
  });
});
