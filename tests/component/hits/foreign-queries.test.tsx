import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { caseTypes, cases, chemistries, foreignQueries, foreignQueryReleases, profiles, serviceClients } from '../../../server/db/schema';
import { newClientCredentials } from '../../../server/identity/service-clients';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// Issue 32, Prüm II: a reviewer of the laboratory holding a matched profile releases its data to the foreign sender,
// or refuses with a reason.
vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let orgId: string;
let token: string;

/** A foreign query whose one candidate is this laboratory's profile `sampleName`. */
async function releaseRequest(reference: string, sampleName: string) {
  const db = t.database.db;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const [kit] = await db.select().from(chemistries).where(eq(chemistries.name, 'Screen kit'));
  const [aCase] = await db.insert(cases).values({ caseNumber: `C-${sampleName}`, caseTypeId: caseType!.id, organizationId: orgId }).returning();
  const [profile] = await db.insert(profiles).values({ profileId: sampleName, caseId: aCase!.id, organizationId: orgId, kind: 'Autosomal', chemistryId: kit!.id, sampleType: 'Convicted Offender', status: 'approved' }).returning();
  const [client] = await db.select().from(serviceClients).limit(1);
  const [query] = await db.insert(foreignQueries).values({ serviceClientId: client!.id, reference, requestingCountry: 'DE', requestingInstance: 'BKA Wiesbaden', chemistryId: kit!.id, markerCount: 13, stringency: 'high', candidateCount: 1 }).returning();
  await db.insert(foreignQueryReleases).values({ foreignQueryId: query!.id, profileId: profile!.id, organizationId: orgId });
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  await db.insert(caseTypes).values({ name: 'Screen case type' });
  await db.insert(chemistries).values({ name: 'Screen kit', kind: 'Autosomal' });
  const made = newClientCredentials();
  await db.insert(serviceClients).values({ name: 'Bundeskriminalamt', clientId: made.clientId, secretHash: made.secretHash });
  const reviewers = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read', 'Publish'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: reviewers.id, organizationIds: [orgId] })).id);
  await releaseRequest('DE-2026-001', 'NDNAD-1');
  await releaseRequest('DE-2026-002', 'NDNAD-2');
}, 90_000);
afterAll(() => t.close());

const open = async () => renderScreen(`/${orgId}/foreign-queries`, { t, token, me: await meOf(t, token) });
const rowOf = async (reference: string) => within((await screen.findByRole('rowheader', { name: reference })).closest('tr')!);

describe('foreign queries screen', () => {
  it('lists the waiting release requests, releases one after confirming and refuses another with a reason', async () => {
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Foreign queries' })).toBeInTheDocument();
    const first = await rowOf('DE-2026-001');
    expect(first.getByText('BKA Wiesbaden (DE)')).toBeInTheDocument();
    expect(first.getByText('High')).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'NDNAD-1' })).toBeInTheDocument();

    await userEvent.click(first.getByRole('button', { name: 'Release' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Release the profile’s data?' }));
    expect(confirm.getByText(/BKA Wiesbaden \(DE\) the specimen id, laboratory and genotypes of NDNAD-1/)).toBeInTheDocument();
    await userEvent.click(confirm.getByRole('button', { name: 'Release' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'DE-2026-001' })).not.toBeInTheDocument());

    // Refusing waits for a reason.
    await userEvent.click((await rowOf('DE-2026-002')).getByRole('button', { name: 'Refuse' }));
    const refuse = within(await screen.findByRole('alertdialog', { name: 'Refuse to release?' }));
    expect(refuse.getByRole('button', { name: 'Refuse' })).toBeDisabled();
    await userEvent.type(refuse.getByLabelText('Reason (the sender is told)'), 'No legal basis for this request');
    await userEvent.click(refuse.getByRole('button', { name: 'Refuse' }));
    expect(await screen.findByText('There are no release requests here.')).toBeInTheDocument();

    // The decided ones are under their status, with the reason.
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Refused');
    expect((await rowOf('DE-2026-002')).getByText('Refused: No legal basis for this request')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Released');
    expect((await rowOf('DE-2026-001')).getByText('Released')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Release' })).not.toBeInTheDocument();
  });
});
