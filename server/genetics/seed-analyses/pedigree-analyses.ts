import type { AnalysisPedigree } from '../../../core/schemas/analyses';
import type { PedigreePersonInput } from '../../../core/schemas/pedigrees';
import type { SeedAnalysis } from './types';

type Person = PedigreePersonInput;
const founder = (id: string, sex: Person['sex']): Person => ({ id, sex });
const child = (id: string, sex: Person['sex'], father: string, mother: string): Person => ({ id, sex, father, mother });
const tested = (target: string, ...persons: Person[]): AnalysisPedigree => ({ persons, target, alternative: null });

/**
 * The pedigrees of the seed pairwise and trio analyses (issue 16: they keep their formula tables and gain an
 * optional mutation model, which weighs every transmission of these pedigrees). H2: the tested person unrelated.
 * Without a mutation model each gives the analysis's κ values exactly (tested).
 */
export const SEED_KINSHIP_PEDIGREES: Readonly<Record<string, AnalysisPedigree>> = {
  'Parent–child': tested('Alleged parent', founder('Alleged parent', 'male'), founder('Mother', 'female'), child('Child', 'male', 'Alleged parent', 'Mother')),
  'Paternity trio': tested('Alleged father', founder('Alleged father', 'male'), founder('Mother', 'female'), child('Child', 'male', 'Alleged father', 'Mother')),
  'Full siblings': tested('Person 2', founder('Father', 'male'), founder('Mother', 'female'), child('Person 1', 'male', 'Father', 'Mother'), child('Person 2', 'male', 'Father', 'Mother')),
  // Paternal half siblings: with a mutation model the shared parent's sex decides which rate applies.
  'Half siblings / second degree': tested(
    'Person 2',
    founder('Father', 'male'),
    founder('Mother 1', 'female'),
    founder('Mother 2', 'female'),
    child('Person 1', 'male', 'Father', 'Mother 1'),
    child('Person 2', 'male', 'Father', 'Mother 2'),
  ),
  'First cousins': tested(
    'Person 2',
    founder('Grandfather', 'male'),
    founder('Grandmother', 'female'),
    child('Son', 'male', 'Grandfather', 'Grandmother'),
    child('Daughter', 'female', 'Grandfather', 'Grandmother'),
    founder('Son\'s wife', 'female'),
    founder('Daughter\'s husband', 'male'),
    child('Person 1', 'male', 'Son', 'Son\'s wife'),
    child('Person 2', 'male', 'Daughter\'s husband', 'Daughter'),
  ),
};

const MP = 'Missing person';

const family = (name: string, label: string, roles: string[], ...persons: Person[]): SeedAnalysis => ({
  name,
  label,
  kind: 'Pedigree',
  profileKind: 'Autosomal',
  roles: [MP, ...roles],
  threshold: 10_000,
  constants: [],
  formulae: [],
  pedigree: tested(MP, ...persons),
  // A commonly used STR rate per meiosis, male higher (paternal bias); laboratories set their own per marker.
  mutation: {
    female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 },
    male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 },
    markers: [],
  },
});

/** The six family shapes a missing-person laboratory meets daily (issue 16), each with its missing person and typed relatives. */
export const SEED_FAMILY_ANALYSES: readonly SeedAnalysis[] = [
  family('Mother and full sister', 'Missing person tested against the mother and a full sister', ['Mother', 'Full sister'],
    founder('Father', 'male'), founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother'), child('Full sister', 'female', 'Father', 'Mother')),
  family('Both parents', 'Missing person tested against both parents', ['Mother', 'Father'],
    founder('Father', 'male'), founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother')),
  family('Paternal grandparents', 'Missing person tested against the father\'s parents', ['Paternal grandfather', 'Paternal grandmother'],
    founder('Paternal grandfather', 'male'), founder('Paternal grandmother', 'female'), child('Father', 'male', 'Paternal grandfather', 'Paternal grandmother'),
    founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother')),
  family('Half-brother and uncle', 'Missing person tested against a paternal half-brother and a paternal uncle', ['Paternal half-brother', 'Paternal uncle'],
    founder('Paternal grandfather', 'male'), founder('Paternal grandmother', 'female'),
    child('Father', 'male', 'Paternal grandfather', 'Paternal grandmother'), child('Paternal uncle', 'male', 'Paternal grandfather', 'Paternal grandmother'),
    founder('Mother', 'female'), founder('Half-brother\'s mother', 'female'),
    child(MP, 'male', 'Father', 'Mother'), child('Paternal half-brother', 'male', 'Father', 'Half-brother\'s mother')),
  family('Father and child', 'Missing person tested against the father and the missing person\'s child', ['Father', 'Child'],
    founder('Father', 'male'), founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother'),
    founder('Child\'s mother', 'female'), child('Child', 'female', MP, 'Child\'s mother')),
  family('Wife and two children', 'Missing person tested against his wife and their two children', ['Wife', 'Child 1', 'Child 2'],
    founder(MP, 'male'), founder('Wife', 'female'), child('Child 1', 'female', MP, 'Wife'), child('Child 2', 'male', MP, 'Wife')),
];

/** The seed group of the family shapes. */
export const MISSING_PERSONS_GROUP = 'Missing persons';
