import { describe, expect, it } from 'vitest';
import type { Analysis, AnalysisInput, AnalysisPedigree } from '../../../../core/schemas/analyses';
import { analysisBody, AnalysisForm, EMPTY_ANALYSIS } from '../../../../src/admin/analyses/analysis-form';
import { addPerson, pedigreeOf, removePerson, renamePerson, rowsOf, setParent, setSex, setTarget, setTyped } from '../../../../src/admin/analyses/pedigree-rows';

const UNCLE: AnalysisPedigree = {
  persons: [
    { id: 'Grandfather', sex: 'male' },
    { id: 'Grandmother', sex: 'female' },
    { id: 'Father', sex: 'male', father: 'Grandfather', mother: 'Grandmother' },
    { id: 'Uncle', sex: 'male', father: 'Grandfather', mother: 'Grandmother' },
    { id: 'Mother', sex: 'female' },
    { id: 'Half-brother', sex: 'male', father: 'Father', mother: 'Mother' },
    { id: 'Missing person', sex: 'male', father: 'Father', mother: 'Mother' },
  ],
  target: 'Missing person',
  alternative: null,
};

describe('the pedigree table of the analysis editor', () => {
  it('gives back the stored pedigree and roles unchanged, even when the roles are not in table order', () => {
    const roles = ['Missing person', 'Half-brother', 'Uncle'];
    const out = pedigreeOf(rowsOf(UNCLE, roles));
    expect(out.roles).toEqual(roles);
    expect(new Set(out.pedigree.persons.map((p) => JSON.stringify(p)))).toEqual(new Set(UNCLE.persons.map((p) => JSON.stringify(p))));
    expect(out.pedigree.target).toBe('Missing person');
  });

  it('keeps parents by row through renames, even through a name another person has for a moment', () => {
    let state = rowsOf(UNCLE, ['Missing person']);
    const father = state.rows.find((r) => r.id === 'Father')!.key;
    state = renamePerson(state, father, 'Uncle'); // briefly the uncle's name
    state = renamePerson(state, father, 'Dad');
    const out = pedigreeOf(state).pedigree.persons;
    expect(out.find((p) => p.id === 'Missing person')).toMatchObject({ father: 'Dad', mother: 'Mother' });
    expect(out.find((p) => p.id === 'Uncle')).toMatchObject({ father: 'Grandfather' });
  });

  it('orders the roles as the typed rows, the tested person first', () => {
    let state = rowsOf(null, []);
    for (let i = 0; i < 3; i++) state = addPerson(state);
    const [a, b, c] = state.rows.map((r) => r.key) as [string, string, string];
    state = setTyped(state, c, true);
    state = setTyped(state, a, true);
    state = setTarget(state, b);
    expect(pedigreeOf(state).roles).toEqual(['Person 2', 'Person 1', 'Person 3']);
    // untyping the tested person leaves none chosen
    state = setTyped(state, b, false);
    expect(pedigreeOf(state)).toMatchObject({ roles: ['Person 1', 'Person 3'], pedigree: { target: '' } });
  });

  it('drops a removed person, or one who changed sex, as a parent', () => {
    let state = rowsOf(UNCLE, ['Missing person']);
    const key = (id: string) => state.rows.find((r) => r.id === id)!.key;
    state = setSex(state, key('Father'), 'female');
    expect(pedigreeOf(state).pedigree.persons.find((p) => p.id === 'Missing person')).toEqual({ id: 'Missing person', sex: 'male', mother: 'Mother' });
    state = setParent(state, key('Missing person'), 'father', key('Uncle'));
    state = removePerson(state, key('Missing person'));
    expect(pedigreeOf(state).pedigree.target).toBe('');
    state = removePerson(state, key('Grandmother'));
    expect(pedigreeOf(state).pedigree.persons.find((p) => p.id === 'Uncle')).toEqual({ id: 'Uncle', sex: 'male', father: 'Grandfather' });
  });

  it('names an added person with the first free number', () => {
    let state = rowsOf({ persons: [{ id: 'Person 2', sex: 'female' }], target: 'Person 2', alternative: null }, ['Person 2']);
    state = addPerson(state);
    state = addPerson(state);
    expect(state.rows.map((r) => r.id)).toEqual(['Person 2', 'Person 3', 'Person 4']);
  });
});

describe('what the analysis form sends and refuses', () => {
  const stored = (over: Partial<Analysis>): Analysis => ({ ...EMPTY_ANALYSIS, id: 'x', analysisGroupId: 'g', analysisGroupName: 'G', version: 1, formulaCount: 0, constantCount: 0, missingPatterns: [], pedigree: null, mutation: null, mixture: null, ...over });
  const values: AnalysisInput = { ...EMPTY_ANALYSIS, name: 'A', roles: ['Missing person'], pedigree: UNCLE, mutation: { female: { model: 'trivial' }, male: { model: 'trivial' }, markers: [] } };

  it('sends a Pedigree analysis its pedigree and models, an exclusion neither, a computational one its models only when it has a pedigree', () => {
    expect(analysisBody({ ...values, kind: 'Pedigree' }, null)).toMatchObject({ pedigree: UNCLE, mutation: values.mutation });
    expect(analysisBody({ ...values, kind: 'Exclusion' }, null)).toMatchObject({ pedigree: null, mutation: null });
    const computational = analysisBody({ ...values, kind: 'Computational' }, stored({ pedigree: UNCLE }));
    expect('pedigree' in computational).toBe(false);
    expect(computational.mutation).toEqual(values.mutation);
    const plain = analysisBody({ ...values, kind: 'Computational' }, stored({}));
    expect('pedigree' in plain || 'mutation' in plain).toBe(false);
  });

  it('refuses a Pedigree analysis without a pedigree, a person with one parent, and a name given twice', () => {
    const issues = (input: AnalysisInput) => (AnalysisForm.safeParse(input).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ ...values, kind: 'Pedigree', pedigree: null })).toEqual(['pedigree: Draw the pedigree: add its persons and choose the tested person']);
    const persons = [...UNCLE.persons, { id: 'Uncle', sex: 'male' as const, father: 'Grandfather' }];
    expect(issues({ ...values, kind: 'Pedigree', pedigree: { ...UNCLE, persons } })).toEqual([
      'pedigree.persons.7.id: Another person has this name',
      'pedigree.persons.7.mother: Give both parents (an untyped one if unknown) or none',
    ]);
    expect(issues({ ...values, kind: 'Computational', pedigree: { ...UNCLE, persons } })).toEqual([]);
  });
});
