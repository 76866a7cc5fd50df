import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UploadEligibilityRules } from '../../../core/schemas/upload-eligibility';
import { seedUploadEligibility } from '../../../server/db/seed/upload-eligibility';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let adminToken: string;
let readerToken: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await seedUploadEligibility(db);
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] })).id);
  readerToken = t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db, { grants: { Profiles: ['Read'] } })).id, organizationIds: [orgId] })).id);
}, 60_000);
afterAll(() => t.close());

const rules = async () => (await t.app.inject({ method: 'GET', url: '/api/upload-eligibility-rules', headers: { authorization: `Bearer ${adminToken}` } })).json() as UploadEligibilityRules;
const index = (name: string) => within(screen.getByRole('group', { name }));
const open = async (token: string) => {
  renderScreen(`/${orgId}/upload-eligibility-rules`, { t, token, me: await meOf(t, token) });
  await screen.findByRole('group', { name: 'Forensic Unknown' });
};

describe('the upload eligibility screen (issue 32)', () => {
  it('shows each index with its rules, a sample type of another index offered disabled with that index named', async () => {
    await open(adminToken);
    expect(index('Convicted Offender').getByLabelText(/^Minimum core loci/)).toHaveValue(20);
    expect(index('Forensic Mixture').getByLabelText(/^Most alleles per locus/)).toHaveValue(4);
    expect(index('Forensic Unknown').getByLabelText(/^Rarity threshold/)).toHaveValue(10_000_000);
    expect(index('Forensic Unknown').getByText("A profile's match probability must be under 1 in 10⁷.")).toBeInTheDocument();
    expect(index('Forensic Unknown').getByLabelText('Forensic, Unknown')).toBeChecked();
    const taken = index('Arrestee').getByLabelText('Convicted Offender');
    expect(taken).toBeDisabled();
    expect(index('Arrestee').getByText('In Convicted Offender')).toBeInTheDocument();
    expect(index('Arrestee').getByLabelText('Elimination, Known')).toBeEnabled();
  });

  it('saves a change for an administrator with scope All and says so', async () => {
    await open(adminToken);
    const min = index('Forensic Unknown').getByLabelText(/^Minimum core loci/);
    await userEvent.clear(min);
    await userEvent.type(min, '10');
    await userEvent.click(index('Relatives of Missing Person').getByLabelText('Spouse'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved: the upload rules are in force.', {}, { timeout: 10_000 })).toBeInTheDocument();
    const saved = (await rules()).indexes;
    expect(saved.find((i) => i.name === 'Forensic Unknown')!.minCoreLoci).toBe(10);
    expect(saved.find((i) => i.name === 'Relatives of Missing Person')!.sampleTypes).not.toContain('Spouse');
  });

  it('refuses a value out of range beside its field, before sending', async () => {
    await open(adminToken);
    const min = index('Arrestee').getByLabelText(/^Minimum core loci/);
    await userEvent.clear(min);
    await userEvent.type(min, '25');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(min).toHaveAttribute('aria-invalid', 'true'));
    expect(min.closest('.field')).toHaveTextContent('At most 20 (the CODIS core loci)');
    expect((await rules()).indexes.find((i) => i.name === 'Arrestee')!.minCoreLoci).toBe(20);
  });

  it('keeps the input when someone else saved meanwhile, and saves it over the current version once reloaded', async () => {
    await open(adminToken);
    const body = (await rules()).indexes.map(({ name: _, updatedAt: __, ...i }) => (i.maxAllelesPerLocus === 4 ? { ...i, maxAllelesPerLocus: 5 } : i));
    expect((await t.app.inject({ method: 'PUT', url: '/api/upload-eligibility-rules', headers: { authorization: `Bearer ${adminToken}` }, payload: { indexes: body } })).statusCode).toBe(200);
    const missing = index('Missing Person').getByLabelText(/^Minimum core loci/);
    await userEvent.clear(missing);
    await userEvent.type(missing, '12');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your changes are still in the form.');
    expect(missing).toHaveValue(12);
    await userEvent.click(within(alert).getByRole('button', { name: 'Load the current version' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    await screen.findByRole('group', { name: 'Missing Person' }, { timeout: 10_000 });
    expect(index('Missing Person').getByLabelText(/^Minimum core loci/)).toHaveValue(12);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved: the upload rules are in force.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect((await rules()).indexes.find((i) => i.name === 'Missing Person')!.minCoreLoci).toBe(12);
  });

  it('shows everyone else the rules read-only, with no Save', async () => {
    await open(readerToken);
    expect(index('Convicted Offender').getByLabelText(/^Minimum core loci/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
