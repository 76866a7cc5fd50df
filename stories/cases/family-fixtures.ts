import type { Analysis, AnalysisPedigree } from '../../core/schemas/analyses';
import type { Family } from '../../core/schemas/families';
import type { Population } from '../../core/schemas/populations';
import type { Profile } from '../../core/schemas/profiles';
import type { FamilyCalls, FamilyChoices } from '../../src/cases/families-api';
import { OSLO, RECORD } from '../app/story-users';

/** Example families for stories only: no real people or casework. */
const ANALYSIS_ID = '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21';
const MOTHER = '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5';
const SISTER = '2c9e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6';
const POPULATION = '4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e';

const family = (id: string, name: string, overrides: Partial<Family> = {}): Family => ({
  id,
  caseId: RECORD,
  organizationId: OSLO,
  name,
  analysisId: ANALYSIS_ID,
  analysisName: 'Mother and full sister',
  missingPersonRole: 'Missing person',
  relatives: [
    { role: 'Mother', profileId: MOTHER, sampleName: 'MP-MOTHER', status: 'approved' },
    { role: 'Full sister', profileId: SISTER, sampleName: 'MP-SISTER', status: 'approved' },
  ],
  populationIds: [POPULATION],
  threshold: 10_000,
  status: 'draft',
  activatedAt: null,
  searchedAt: null,
  hitCount: 0,
  version: 1,
  ...overrides,
});

export const DRAFT = family('0b5c2a8e-4f1d-4c3b-9a7e-6d2f1e0c9b8a', 'Family of the missing son');
export const PENDING_RELATIVE = family('1a5c2a8e-4f1d-4c3b-9a7e-6d2f1e0c9b8a', 'Family awaiting the sister', {
  relatives: [DRAFT.relatives[0]!, { role: 'Full sister', profileId: SISTER, sampleName: 'MP-SISTER-2', status: 'pending' }],
});
export const ACTIVE = family('2c5c2a8e-4f1d-4c3b-9a7e-6d2f1e0c9b8a', 'Family searching', {
  status: 'active',
  activatedAt: '2026-03-01T09:00:00.000Z',
  searchedAt: '2026-03-02T14:30:00.000Z',
  hitCount: 1,
  version: 3,
});
export const INACTIVE = family('3d5c2a8e-4f1d-4c3b-9a7e-6d2f1e0c9b8a', 'Family no longer searched', { status: 'inactive', searchedAt: '2026-02-11T08:00:00.000Z', hitCount: 2, version: 5 });

/** The seeded family shape 'Mother and full sister' (server/genetics/seed-analyses/pedigree-analyses.ts). */
export const MOTHER_AND_SISTER: AnalysisPedigree = {
  persons: [
    { id: 'Father', sex: 'male' },
    { id: 'Mother', sex: 'female' },
    { id: 'Missing person', sex: 'male', father: 'Father', mother: 'Mother' },
    { id: 'Full sister', sex: 'female', father: 'Father', mother: 'Mother' },
  ],
  target: 'Missing person',
  alternative: null,
};

const profile = (id: string, profileId: string, status: Profile['status']) => ({ id, profileId, status, kind: 'Autosomal' }) as Profile;
const analysis = {
  id: ANALYSIS_ID,
  name: 'Mother and full sister',
  label: 'Missing person tested against the mother and a full sister',
  kind: 'Pedigree',
  roles: ['Missing person', 'Mother', 'Full sister'],
  threshold: 10_000,
  pedigree: MOTHER_AND_SISTER,
} as Analysis;

export const CHOICES: FamilyChoices = {
  analyses: [{ id: ANALYSIS_ID, analysisGroupId: '3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d', name: analysis.name, label: analysis.label, kind: 'Pedigree', active: true }],
  profiles: [profile(MOTHER, 'MP-MOTHER', 'approved'), profile(SISTER, 'MP-SISTER', 'approved'), profile('5f2b6c7d-8e9f-4a01-b2c3-d4e5f6a7b8c9', 'MP-UNCLE', 'pending')],
  populations: [{ id: POPULATION, name: 'FBI 2015 Caucasian' } as Population, { id: '6a3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e', name: 'FBI 2015 African American' } as Population],
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<never>(() => undefined);

/**
 * Fake calls: a family named with "refuse" gets the server's 400 at the sister's profile; activating answers 31 remains
 * searched and one new hit; anything else succeeds after a moment. `list` answers `families` (or never, or fails).
 */
export function storyFamilyCalls(families: Family[] | 'loading' | 'failed' = [DRAFT, ACTIVE, INACTIVE]): FamilyCalls {
  const saved = async (body: { name: string }) => {
    await wait(500);
    if (body.name.includes('refuse')) throw { status: 400, serverMessage: 'One profile cannot stand for two relatives.', body: { details: [{ path: '/relatives/1/profileId', message: 'A profile placed twice' }] } };
    return family('7e5c2a8e-4f1d-4c3b-9a7e-6d2f1e0c9b8a', body.name);
  };
  return {
    list: async () => (families === 'loading' ? never() : families === 'failed' ? Promise.reject({ status: 0 }) : families),
    add: async (_caseId, body) => saved(body),
    update: async (_id, body) => saved(body),
    remove: async () => wait(500).then(() => undefined),
    activate: async (id) => {
      await wait(800);
      const found = (Array.isArray(families) ? families : []).find((f) => f.id === id) ?? DRAFT;
      return { family: { ...found, status: 'active', searchedAt: '2026-03-03T10:00:00.000Z', hitCount: found.hitCount + 1, version: found.version + 1 }, searchedProfiles: 31, hitsAdded: 1 };
    },
    deactivate: async (id) => {
      await wait(500);
      const found = (Array.isArray(families) ? families : []).find((f) => f.id === id) ?? ACTIVE;
      return { ...found, status: 'inactive', version: found.version + 1 };
    },
    analysis: async () => analysis,
    choices: async () => CHOICES,
  };
}
