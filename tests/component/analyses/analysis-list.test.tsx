import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import { analyses, analysisGroups, caseTypes, chemistries } from '../../../server/db/schema';
import { seedReferenceData } from '../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// Issue 18: "The analysis calculator is reachable only from a case or a hit: list the analyses in the navigation."
vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let orgId: string;
let analystToken: string;
let casesOnlyToken: string;

function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add'], Profiles: ['Read', 'Add'], Analyses: ['Read'], Populations: ['Read'] } });
  analystToken = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  const casesOnly = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  casesOnlyToken = t.verifier.issue((await createUser(db, { email: 'cases@oslo.test', accessGroupId: casesOnly.id, organizationIds: [orgId] })).id);
  // One profile of the organization, for the calculator opened without a case to offer.
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const caseId = (await call(analystToken, 'POST', '/api/cases', { caseNumber: 'KIN-9', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] })).json().id;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const added = await call(analystToken, 'POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: 'SIB-9', markerValues: [] }] });
  if (added.statusCode !== 201 && added.statusCode !== 200) throw new Error(added.body);
  expect((added.json() as { items: Profile[] }).items).toHaveLength(1);
}, 90_000);
afterAll(() => t.close());

const open = async (token: string, path = `/${orgId}`) => renderScreen(path, { t, token, me: await meOf(t, token) });
const mainNav = () => within(screen.getByRole('navigation', { name: 'Main' }));

describe('the analyses in the navigation', () => {
  it('lists every analysis by group, as Analysis groups groups them, and opens the calculator without a case', async () => {
    await open(analystToken);
    await userEvent.click(mainNav().getByRole('link', { name: 'Analyses' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Analyses' })).toBeInTheDocument();

    // Each group a heading, in name order, holding its analyses in name order.
    const db = t.database.db;
    const groups = await db.select().from(analysisGroups).orderBy(asc(analysisGroups.name));
    const page = within(screen.getByRole('region', { name: 'Analyses' }));
    await waitFor(() => expect(page.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(groups.map((g) => g.name)));
    const kinship = groups.find((g) => g.name === 'Kinship')!;
    const names = (await db.select().from(analyses).where(eq(analyses.analysisGroupId, kinship.id))).map((a) => a.name).sort((a, b) => a.localeCompare(b));
    const region = within(page.getByRole('region', { name: 'Kinship' }));
    expect(region.getAllByRole('link').map((l) => l.textContent)).toEqual(expect.arrayContaining(names));
    expect(region.getAllByRole('link')).toHaveLength(names.length);

    const siblings = region.getByRole('link', { name: 'Full siblings' });
    const [fullSiblings] = await db.select().from(analyses).where(eq(analyses.name, 'Full siblings'));
    expect(siblings).toHaveAttribute('href', `/${orgId}/analyses/${kinship.id}/${fullSiblings!.id}`);
    await userEvent.click(siblings);

    // The calculator, with no case: it offers the organization's profiles.
    expect(await screen.findByRole('heading', { level: 1, name: 'Full siblings' })).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText('Find a profile for Person 1'), 'SIB-9');
    const select = screen.getByLabelText('Person 1', { selector: 'select' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toContain('SIB-9 (case KIN-9, pending)'));
  });

  it('is not offered to a user who may not run analyses', async () => {
    await open(casesOnlyToken);
    expect(mainNav().getByRole('link', { name: 'Cases' })).toBeInTheDocument();
    expect(mainNav().queryByRole('link', { name: 'Analyses' })).not.toBeInTheDocument();
  });
});
