import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CandidateMatchNotice } from '../../../core/schemas/candidate-matches';
import { candidateMatches, caseTypes, cases, chemistries, profiles, uploadOutbox } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// Issue 32: a candidate match the upper instance sent down is reviewed like a hit: confirmed, or rejected with a reason.
vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let orgId: string;
const tokens = { reviewer: '', reader: '' };

/** A candidate match of this laboratory's profile `sampleName` with another laboratory's specimen `other`. */
async function candidateMatch(sampleName: string, other: string) {
  const db = t.database.db;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const [kit] = await db.select().from(chemistries).where(eq(chemistries.name, 'Screen kit'));
  const [aCase] = await db.insert(cases).values({ caseNumber: `C-${sampleName}`, caseTypeId: caseType!.id, organizationId: orgId }).returning();
  const [profile] = await db.insert(profiles).values({ profileId: sampleName, caseId: aCase!.id, organizationId: orgId, kind: 'Autosomal', chemistryId: kit!.id, sampleType: 'Forensic, Unknown', status: 'approved' }).returning();
  const notice: CandidateMatchNotice = {
    id: crypto.randomUUID(),
    profileId: profile!.id,
    specimenId: sampleName,
    laboratory: 'Oslo Lab',
    counterparts: [{ specimenId: other, laboratory: 'Bergen Lab', instance: 'Instance B' }],
    analysis: 'Identity',
    matchKind: 'identity',
    stringency: { stringency: 'high', comparedMarkers: 20, mismatches: 0, minMarkers: 10, maxMismatches: 0, probability: 1e-20, searchedProfiles: 1000, expectedChanceHits: 1e-17 },
    statistics: [{ population: 'Norway', combinedIndex: 2.5e21, probability: '1 in 2.5 sextillion', reported: true }],
    foundAt: '2026-11-28T12:00:00.000Z',
  };
  await db.insert(candidateMatches).values({ id: notice.id, organizationId: orgId, profileId: profile!.id, upperInstance: 'https://sdis.example.gov', notice });
}

beforeAll(async () => {
  t = await createTestApp({ wakeUploadSender: false });
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  await db.insert(caseTypes).values({ name: 'Screen case type' });
  await db.insert(chemistries).values({ name: 'Screen kit', kind: 'Autosomal' });
  const reviewers = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read', 'Publish'] } });
  tokens.reviewer = t.verifier.issue((await createUser(db, { accessGroupId: reviewers.id, organizationIds: [orgId] })).id);
  const readers = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  tokens.reader = t.verifier.issue((await createUser(db, { accessGroupId: readers.id, organizationIds: [orgId] })).id);
  await candidateMatch('OSL-STAIN-1', 'BRG-OFF-77');
  await candidateMatch('OSL-STAIN-2', 'BRG-OFF-78');
}, 90_000);
afterAll(() => t.close());

const open = async (who: keyof typeof tokens) => renderScreen(`/${orgId}/candidate-matches`, { t, token: tokens[who], me: await meOf(t, tokens[who]) });
const rowOf = async (sampleName: string) => within((await screen.findByRole('link', { name: sampleName })).closest('tr')!);

describe('candidate matches screen', () => {
  it('shows a reader the matches with the other side’s specimen, laboratory, instance and statistics, and no decision buttons', async () => {
    await open('reader');
    expect(await screen.findByRole('heading', { level: 1, name: 'Candidate matches' })).toBeInTheDocument();
    const row = await rowOf('OSL-STAIN-1');
    expect(row.getByText('BRG-OFF-77 (Bergen Lab, Instance B)')).toBeInTheDocument();
    expect(row.getByText('High')).toBeInTheDocument();
    expect(row.getByText('LR 2.50e+21 · 1 in 2.5 sextillion (Norway)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
  });

  it('confirms one after asking, rejects another only with a reason, and queues both decisions for the upper instance', async () => {
    await open('reviewer');
    await userEvent.click((await rowOf('OSL-STAIN-1')).getByRole('button', { name: 'Confirm' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Confirm the candidate match?' }));
    expect(confirm.getByText(/OSL-STAIN-1 matches BRG-OFF-77 \(Bergen Lab, Instance B\)/)).toBeInTheDocument();
    await userEvent.click(confirm.getByRole('button', { name: 'Confirm' }));
    await waitFor(async () => expect((await rowOf('OSL-STAIN-1')).getByText('Confirmed')).toBeInTheDocument());

    await userEvent.click((await rowOf('OSL-STAIN-2')).getByRole('button', { name: 'Reject' }));
    const reject = within(await screen.findByRole('alertdialog', { name: 'Reject the candidate match?' }));
    expect(reject.getByRole('button', { name: 'Reject' })).toBeDisabled();
    await userEvent.type(reject.getByLabelText('Reason (the upper instance is told)'), 'Different amelogenin at the laboratory');
    await userEvent.click(reject.getByRole('button', { name: 'Reject' }));
    await waitFor(async () => expect((await rowOf('OSL-STAIN-2')).getByText('Rejected: Different amelogenin at the laboratory')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
    const queued = await t.database.db.select().from(uploadOutbox).where(eq(uploadOutbox.action, 'decision'));
    expect(queued.map((e) => (e.payload as { decision: { status: string } }).decision.status).sort()).toEqual(['confirmed', 'rejected']);
  });
});
