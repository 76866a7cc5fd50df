/**
 * The upload eligibility screen (src/admin/upload-eligibility) over fake calls answering the seed rules (modelled on
 * NDIS), and the profile page's Upload eligibility section (src/profiles/profile-upload-eligibility.tsx).
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ProfileUploadEligibility, UploadEligibilityRules } from '../../core/schemas/upload-eligibility';
import { CODIS_CORE_LOCI } from '../../core/network/codis-core-loci';
import { ApiError } from '../../src/api/middleware/api-error';
import { UploadEligibilityRulesView } from '../../src/admin/upload-eligibility/upload-eligibility-rules';
import type { UploadEligibilityCalls } from '../../src/admin/upload-eligibility/upload-eligibility-api';
import { ProfileUploadEligibilityNote } from '../../src/profiles/profile-upload-eligibility';
import { StoryRouter } from '../app/story-router';
import { OSLO } from '../app/story-users';

const at = '2026-11-28T09:30:00.000Z';
const index = (n: number, name: string, sampleTypes: UploadEligibilityRules['indexes'][number]['sampleTypes'], minCoreLoci: number, maxAllelesPerLocus: number, rarityOneIn: number | null) => ({
  id: `40000000-0000-4000-8000-00000000000${n}`,
  version: 1,
  name,
  sampleTypes,
  minCoreLoci,
  maxAllelesPerLocus,
  rarityOneIn,
  updatedAt: at,
});

const RULES: UploadEligibilityRules = {
  coreLoci: [...CODIS_CORE_LOCI],
  indexes: [
    index(1, 'Convicted Offender', ['Convicted Offender'], 20, 2, null),
    index(2, 'Arrestee', ['Arrestee'], 20, 2, null),
    index(3, 'Forensic Unknown', ['Forensic, Unknown'], 8, 2, 1e7),
    index(4, 'Forensic Mixture', ['Forensic Mixture'], 8, 4, 1e7),
    index(5, 'Missing Person', ['Missing Person'], 8, 2, null),
    index(6, 'Unidentified Human Remains', ['Unidentified Human (Remains)'], 8, 2, null),
    index(7, 'Relatives of Missing Person', ['Biological Mother', 'Biological Father', 'Biological Child', 'Biological Sibling', 'Alleged Father', 'Alleged Mother', 'Spouse'], 20, 2, null),
  ],
};

const never = () => new Promise<never>(() => undefined);
const stale = new ApiError(409, { error: 'This record was changed by someone else. Reload to see the current version.' }, 'PUT', '/api/upload-eligibility-rules');
const calls = (over: Partial<UploadEligibilityCalls> = {}): UploadEligibilityCalls => ({
  get: async () => RULES,
  save: async (body) => ({ ...RULES, indexes: RULES.indexes.map((i, at) => ({ ...i, ...body.indexes[at], version: i.version + 1 })) }),
  ...over,
});

const screen = (c: UploadEligibilityCalls, mayEdit = true) => (
  <StoryRouter path={`/${OSLO}/upload-eligibility-rules`}>
    <div style={{ padding: '1rem' }}>
      <UploadEligibilityRulesView calls={c} mayEdit={mayEdit} cancelHref={`/${OSLO}`} />
    </div>
  </StoryRouter>
);

const meta = { title: 'Admin/Upload eligibility', parameters: { layout: 'fullscreen' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** An administrator with scope All: every index editable; Save says the rules are in force. */
export const Rules: Story = { render: () => screen(calls()) };

/** Anyone else: the same rules, every field disabled, Back instead of Save. */
export const ReadOnly: Story = { render: () => screen(calls(), false) };

/** Save answers 409 (someone else saved meanwhile): the input stays, with the current version offered. Press Save. */
export const StaleSave: Story = { render: () => screen(calls({ save: () => Promise.reject(stale) })) };

/** The rules still loading. */
export const Loading: Story = { render: () => screen(calls({ get: never })) };

/** The rules could not be read. */
export const LoadFailed: Story = { render: () => screen(calls({ get: () => Promise.reject(new Error('offline')) })) };

const verdict = (v: ProfileUploadEligibility) => <ProfileUploadEligibilityNote profileId="50000000-0000-4000-8000-000000000001" version={1} calls={{ uploadEligibility: async () => v }} />;

/** The profile page: an approved offender typed at all 20 core loci. */
export const ProfileEligible: Story = { render: () => verdict({ eligible: true, index: 'Convicted Offender', reasons: [], matchProbability: null, upperInstance: true }) };

/** The profile page: a forensic stain with every reason it stays at the laboratory. */
export const ProfileNotEligible: Story = {
  render: () =>
    verdict({
      eligible: false,
      index: 'Forensic Unknown',
      reasons: ['Missing core loci: D8S1179, TH01, FGA (7 of 20 typed; Forensic Unknown needs at least 8)', 'Too many alleles at D3S1358: 3 (at most 2)', "Match probability 1 in 3.1 × 10⁵ is above the level's rarity threshold 1 in 10⁷"],
      matchProbability: 3.2e-6,
      upperInstance: true,
    }),
};
