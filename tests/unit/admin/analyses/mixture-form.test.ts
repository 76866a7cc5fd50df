import { describe, expect, it } from 'vitest';
import type { Analysis, AnalysisInput } from '../../../../core/schemas/analyses';
import type { MixtureSetting } from '../../../../core/schemas/mixtures';
import { analysisBody, AnalysisForm, DEFAULT_MIXTURE, EMPTY_ANALYSIS, formValuesOf } from '../../../../src/admin/analyses/analysis-form';
import { contributorLabel, resizeDropout } from '../../../../src/admin/analyses/mixture-field';

const FIXED: MixtureSetting = { ...DEFAULT_MIXTURE, contributors: 3, dropout: { mode: 'fixed', values: [0.05, 0.1, 0.2] } };
const stored = (over: Partial<Analysis>): Analysis => ({
  ...EMPTY_ANALYSIS,
  id: 'x',
  analysisGroupId: 'g',
  analysisGroupName: 'G',
  version: 1,
  formulaCount: 0,
  constantCount: 0,
  missingPatterns: [],
  pedigree: null,
  mutation: null,
  mixture: null,
  ...over,
});
const mixtureValues: AnalysisInput = { ...EMPTY_ANALYSIS, name: 'Mixture, 3 contributors', kind: 'Mixture', roles: ['Evidence', 'Person of interest'], threshold: 10_000, mixture: FIXED };
const issues = (input: AnalysisInput) => (AnalysisForm.safeParse(input).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('what the analysis form sends for mixture analyses', () => {
  it('sends a Mixture analysis its parameters and its two roles, with no pedigree or mutation models', () => {
    const body = analysisBody({ ...mixtureValues, roles: ['Stain', 'Suspect'], pedigree: null, mutation: null }, null);
    expect(body).toEqual({ ...mixtureValues, pedigree: null, mutation: null, mixture: FIXED });
    const fromPairwise = analysisBody(mixtureValues, stored({ kind: 'Computational', pedigree: { persons: [{ id: 'Evidence', sex: 'male' }], target: 'Evidence', alternative: null } }));
    expect(fromPairwise).toMatchObject({ pedigree: null, mutation: null, mixture: FIXED });
  });

  it('sends mixture: null only when the kind changed away from Mixture; other kinds leave it out', () => {
    const wasMixture = stored({ kind: 'Mixture', roles: ['Evidence', 'Person of interest'], mixture: FIXED });
    for (const kind of ['Computational', 'Exclusion', 'Pedigree'] as const) {
      expect(analysisBody({ ...mixtureValues, kind, mixture: null }, wasMixture).mixture).toBeNull();
      expect('mixture' in analysisBody({ ...mixtureValues, kind, mixture: null }, stored({ kind: 'Computational' }))).toBe(false);
      expect('mixture' in analysisBody({ ...mixtureValues, kind, mixture: null }, null)).toBe(false);
    }
  });

  it('reads a stored mixture analysis into the form and back unchanged', () => {
    const analysis = stored({ ...mixtureValues, mixture: FIXED });
    expect(formValuesOf(analysis).mixture).toEqual(FIXED);
    expect(formValuesOf(stored({})).mixture).toBeNull();
    expect(analysisBody(formValuesOf(analysis), analysis).mixture).toEqual(FIXED);
  });
});

describe('what the analysis form refuses for mixture analyses', () => {
  it('accepts the seed parameters and fixed drop-outs, one for all or one per contributor', () => {
    expect(issues({ ...mixtureValues, mixture: DEFAULT_MIXTURE })).toEqual([]);
    expect(issues(mixtureValues)).toEqual([]);
    expect(issues({ ...mixtureValues, mixture: { ...FIXED, dropout: { mode: 'fixed', values: [0.1] } } })).toEqual([]);
  });

  it('says which number is out of range or missing', () => {
    const empty = undefined as unknown as number;
    expect(issues({ ...mixtureValues, mixture: { ...FIXED, dropIn: 1, theta: -0.1 } })).toEqual(['mixture.dropIn: Below 1', 'mixture.theta: Cannot be negative']);
    expect(issues({ ...mixtureValues, mixture: { ...FIXED, dropIn: empty, dropout: { mode: 'fixed', values: [-0.1, 1, empty] } } })).toEqual([
      'mixture.dropout.values.0: Cannot be negative',
      'mixture.dropout.values.1: Below 1',
      'mixture.dropout.values.2: Required',
      'mixture.dropIn: Required',
    ]);
  });

  it('refuses a Mixture analysis without parameters, for Y-STR profiles, or with as many drop-outs as neither 1 nor the contributors', () => {
    expect(issues({ ...mixtureValues, mixture: null })).toEqual(['mixture: Set the mixture parameters: contributors, drop-out, drop-in and θ']);
    expect(issues({ ...mixtureValues, profileKind: 'YStr' })).toEqual(['profileKind: Mixture analyses weigh autosomal profiles']);
    expect(issues({ ...mixtureValues, mixture: { ...FIXED, contributors: 2 } })).toEqual(['mixture.dropout.values: One value for all contributors or one per contributor (2)']);
  });
});

describe('fixed drop-out values as the number of contributors changes', () => {
  it('keeps one value for all, and one per contributor follows the count with empty boxes added', () => {
    expect(resizeDropout({ mode: 'fixed', values: [0.1] }, 4)).toEqual({ mode: 'fixed', values: [0.1] });
    expect(resizeDropout({ mode: 'estimated', estimate: 'conservative' }, 4)).toEqual({ mode: 'estimated', estimate: 'conservative' });
    expect(resizeDropout(FIXED.dropout, 2)).toEqual({ mode: 'fixed', values: [0.05, 0.1] });
    expect(resizeDropout(FIXED.dropout, 1)).toEqual({ mode: 'fixed', values: [0.05] });
    expect(resizeDropout(FIXED.dropout, 4)).toEqual({ mode: 'fixed', values: [0.05, 0.1, 0.2, undefined] });
  });

  it('names each value in the order the calculator weighs them', () => {
    expect([0, 1, 2].map(contributorLabel)).toEqual(['Person of interest', 'Known contributor / Unknown 1', 'Known contributor / Unknown 2']);
  });
});
