import { lineageExclusionFormulae, haplotypeMatchFormulae, parentChildExclusionFormulae } from './exclusion-formulae';
import { identityFormulae } from './identity-formulae';
import { kappaConstants, kinshipFormulae } from './kinship-formulae';
import { trioFormulae } from './parentage-formulae';
import { MISSING_PERSONS_GROUP, SEED_FAMILY_ANALYSES, SEED_KINSHIP_PEDIGREES } from './pedigree-analyses';
import type { SeedAnalysis } from './types';

export { MISSING_PERSONS_GROUP, SEED_FAMILY_ANALYSES, SEED_KINSHIP_PEDIGREES } from './pedigree-analyses';

export type { SeedAnalysis, SeedContinuousAnalysis, SeedFormula, SeedMixtureAnalysis } from './types';
export { SEED_CONTINUOUS_ANALYSIS } from './continuous-analyses';
export { MIXTURE_SEARCH_ANALYSIS, MIXTURES_GROUP, SEED_MIXTURE_ANALYSES } from './mixture-analyses';

// A commonly used average STR mutation rate per meiosis (AABB practice uses locus rates; labs edit it).
const MU = { name: 'mu', notation: '\\mu', value: 0.002 };
// GENETICS.md "Parentage with inconsistencies": μ/A at no more than one marker; more is an exclusion (AABB).
export const SEED_MAX_INCONSISTENCIES = { name: 'maxInconsistencies', notation: '\\mathrm{max}_{\\mathrm{inc}}', value: 1 };

const kinship = (name: string, label: string, k: [number, number, number], threshold: number): SeedAnalysis => ({
  name,
  label,
  kind: 'Computational',
  profileKind: 'Autosomal',
  roles: ['Person 1', 'Person 2'],
  threshold,
  constants: kappaConstants(...k),
  formulae: kinshipFormulae(),
  pedigree: SEED_KINSHIP_PEDIGREES[name]!,
});

/** The seed analysis groups of GENETICS.md ("Seed analyses"), each analysis with a complete formula table. */
export const SEED_ANALYSIS_GROUPS: readonly { name: string; analyses: readonly SeedAnalysis[] }[] = [
  {
    name: 'Identity',
    analyses: [
      {
        name: 'Identity',
        label: 'Same source (NRC II 4.10, θ = 0.01)',
        kind: 'Computational',
        profileKind: 'Autosomal',
        roles: ['Evidence', 'Reference'],
        threshold: 1e6,
        constants: [{ name: 'theta', notation: '\\theta', value: 0.01 }],
        formulae: identityFormulae(),
      },
    ],
  },
  {
    name: 'Kinship',
    analyses: [
      {
        name: 'Parent–child',
        label: 'Parent–child (duo), μ/A at an excluded marker',
        kind: 'Computational',
        profileKind: 'Autosomal',
        roles: ['Child', 'Alleged parent'],
        threshold: 10_000,
        constants: [...kappaConstants(0, 1, 0), MU, SEED_MAX_INCONSISTENCIES],
        formulae: kinshipFormulae('mu/A'),
        pedigree: SEED_KINSHIP_PEDIGREES['Parent–child']!,
      },
      {
        name: 'Paternity trio',
        label: 'Mother, child and alleged father',
        kind: 'Computational',
        profileKind: 'Autosomal',
        roles: ['Mother', 'Child', 'Alleged father'],
        threshold: 10_000,
        constants: [MU, SEED_MAX_INCONSISTENCIES],
        formulae: trioFormulae(),
        pedigree: SEED_KINSHIP_PEDIGREES['Paternity trio']!,
      },
      kinship('Full siblings', 'Full siblings (κ = ¼, ½, ¼)', [0.25, 0.5, 0.25], 1000),
      kinship('Half siblings / second degree', 'Half siblings, grandparent–grandchild, avuncular (κ = ½, ½, 0)', [0.5, 0.5, 0], 1000),
      kinship('First cousins', 'First cousins (κ = ¾, ¼, 0)', [0.75, 0.25, 0], 100),
    ],
  },
  {
    name: 'Exclusion',
    analyses: [
      {
        name: 'Parent–child exclusion',
        label: 'Markers where child and alleged parent share no allele',
        kind: 'Exclusion',
        profileKind: 'Autosomal',
        roles: ['Child', 'Alleged parent'],
        // At most one exclusion: a single mutation does not exclude (AABB).
        threshold: 1,
        constants: [],
        formulae: parentChildExclusionFormulae(),
      },
      {
        name: 'Y-STR lineage',
        label: 'Paternal lineage (differing Y-STR alleles exclude)',
        kind: 'Exclusion',
        profileKind: 'YStr',
        roles: ['Unknown', 'Reference'],
        threshold: 1,
        constants: [],
        formulae: lineageExclusionFormulae(),
      },
    ],
  },
  {
    name: 'Y-STR',
    analyses: [
      {
        name: 'Y-STR haplotype frequency',
        label: 'Haplotype count with the 95% Clopper–Pearson bound (SWGDAM 2014)',
        kind: 'Computational',
        profileKind: 'YStr',
        roles: ['Unknown', 'Reference'],
        threshold: 100,
        constants: [{ name: 'theta', notation: '\\theta', value: 0 }],
        formulae: haplotypeMatchFormulae(),
      },
    ],
  },
  { name: MISSING_PERSONS_GROUP, analyses: SEED_FAMILY_ANALYSES },
];
