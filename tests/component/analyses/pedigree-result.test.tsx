/**
 * Issue 16 in the calculator's result view, on a result as the API answers it: a pedigree run whose H2 was drawn
 * out, with a marker of its own mutation models, a marker no model explains, one not evaluated and two populations.
 */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnalysisResult, MarkerResult, PopulationResult } from '../../../core/schemas/analyses';
import { AnalysisResultView } from '../../../src/analyses/analysis-result-view';

const MODELS = 'female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1';
const FGA_MODELS = 'female: equal, rate 0.002; male: onestep, rate 0.004';
const CASE = { caseId: '7b4d8e9f-0a1b-4c23-9de5-f6a7b8c9d0e1', caseNumber: 'MP-7' };

/** A marker of a pedigree run: LR = L(H1) / L(H2). */
const marker = (name: string, genotypes: (string[] | null)[], h1: number, h2: number, verdict: 'consistent' | 'needs a mutation' | 'excluded', mutation = MODELS): MarkerResult => ({
  marker: name,
  genotypes,
  pattern: null,
  expression: null,
  latex: null,
  value: h1 / h2,
  log10: h1 === 0 ? null : Math.log10(h1 / h2),
  isExclusion: null,
  notEvaluated: null,
  pedigree: { alleles: [], frequencies: [], mutation, likelihoodH1: h1, likelihoodH2: h2, verdict },
});

const MARKERS: MarkerResult[] = [
  marker('D3S1358', [['15', '16'], ['16', '17'], ['15']], 2e-4, 5e-5, 'consistent'),
  marker('FGA', [['21', '24'], ['20', '22'], ['21', '23']], 3e-7, 6e-6, 'needs a mutation', FGA_MODELS),
  marker('TH01', [['6', '9.3'], ['7', '8'], ['6', '7']], 0, 4e-5, 'excluded'),
  { marker: 'Amelogenin', genotypes: [['X', 'Y'], ['X'], ['X', 'Y']], pattern: null, expression: null, latex: null, value: null, log10: null, isExclusion: null, notEvaluated: 'no allele frequencies for Amelogenin in FBI 2015 Caucasian', pedigree: null },
];

const population = (populationId: string, populationName: string, combinedIndex: number): PopulationResult => ({
  populationId,
  populationName,
  populationSource: '',
  synthetic: false,
  markers: MARKERS,
  combinedIndex,
  log10: combinedIndex === 0 ? null : Math.log10(combinedIndex),
  probability: combinedIndex === 0 ? 'Excluded' : '99.00%',
  haplotypeCount: null,
  conclusion: null,
  markersNeedingMutation: ['FGA'],
  excludedMarkers: ['TH01'],
});

const RESULT: AnalysisResult = {
  analysisId: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21',
  analysisName: 'Father and child',
  analysisLabel: '',
  kind: 'Pedigree',
  roles: [
    { role: 'Missing person', profileId: '0a7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4', sampleName: 'MP-REMAINS', ...CASE },
    { role: 'Father', profileId: '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5', sampleName: 'MP-FATHER', ...CASE },
    { role: 'Child', profileId: '5f2b6c7d-8e9f-4a01-b2c3-d4e5f6a7b8c9', sampleName: 'MP-CHILD', ...CASE },
  ],
  constants: [],
  missingPatterns: [],
  populations: [population('2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6', 'FBI 2015 Caucasian', 0), population('3d0f4a5b-6c7d-4e8f-9091-a2b3c4d5e6f7', 'FBI 2015 African American', 0)],
  exclusion: null,
  pedigree: {
    h1: [
      { id: 'Father', sex: 'male' },
      { id: 'Mother', sex: 'female' },
      { id: 'Missing person', sex: 'male', father: 'Father', mother: 'Mother' },
      { id: 'Child\'s mother', sex: 'female' },
      { id: 'Child', sex: 'female', father: 'Missing person', mother: 'Child\'s mother' },
    ],
    // Drawn out: the missing person the child's uncle instead of her father.
    h2: [
      { id: 'Father', sex: 'male' },
      { id: 'Mother', sex: 'female' },
      { id: 'Missing person', sex: 'male', father: 'Father', mother: 'Mother' },
      { id: 'Brother', sex: 'male', father: 'Father', mother: 'Mother' },
      { id: 'Child\'s mother', sex: 'female' },
      { id: 'Child', sex: 'female', father: 'Brother', mother: 'Child\'s mother' },
    ],
    target: 'Missing person',
  },
  mutation: {
    female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 },
    male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 },
    markers: [{ marker: 'FGA', female: { model: 'equal', rate: 0.002 }, male: { model: 'onestep', rate: 0.004 } }],
    text: MODELS,
  },
  computedAt: '2026-11-22T10:00:00.000Z',
};

describe('the result of a pedigree run', () => {
  it('draws H1 and a drawn-out H2 with their persons, the tested person named with the sample', () => {
    render(<AnalysisResultView result={RESULT} />);
    const hypotheses = within(screen.getByRole('region', { name: 'Hypotheses' }));
    expect(hypotheses.getByText(/^H1:/).parentElement).toHaveTextContent('H1: the pedigree as drawn, Missing person (MP-REMAINS) the tested person.');
    expect(hypotheses.getByText(/^H2:/).parentElement).toHaveTextContent('H2: as drawn below.');
    const h1 = hypotheses.getByRole('img', { name: /^Pedigree of H1/ });
    expect(h1).toHaveAccessibleName('Pedigree of H1: 5 persons; typed Missing person, Father, Child; tested person Missing person');
    expect(decodeURIComponent(h1.getAttribute('src')!)).toMatch(/^data:image\/svg\+xml;charset=utf-8,<svg /);
    expect(hypotheses.getByRole('img', { name: /^Pedigree of H2: 6 persons/ })).toBeInTheDocument();
    expect(within(hypotheses.getByRole('list', { name: 'Persons of H2' })).getAllByRole('listitem').map((li) => li.textContent)).toContain('Child (MP-CHILD), female; child of Brother and Child\'s mother');
    expect(within(hypotheses.getByRole('list', { name: 'Persons of H1' })).getAllByRole('listitem')[2]).toHaveTextContent('Missing person (MP-REMAINS), male; child of Father and Mother — tested person');
  });

  it('lists the mutation models of every marker and of the marker with its own', () => {
    render(<AnalysisResultView result={RESULT} />);
    const models = within(screen.getByRole('region', { name: 'Mutation models' }));
    expect(models.getAllByRole('listitem').map((li) => li.textContent)).toEqual([`Every marker: ${MODELS}`, `FGA: ${FGA_MODELS}`]);
  });

  it('shows per marker both likelihoods, the LR and the verdict, marking the marker needing a mutation and the excluded one, and names both under the LR', () => {
    render(<AnalysisResultView result={RESULT} />);
    const section = within(screen.getByRole('region', { name: 'Result over FBI 2015 Caucasian' }));
    expect(section.getByText('Likelihood ratio (H1 / H2)').nextSibling).toHaveTextContent('0.00e+0');
    const lists = section.getByRole('status', { name: 'Markers needing a mutation' });
    expect(lists).toHaveTextContent('Markers needing a mutation: FGA');
    expect(lists).toHaveTextContent('Excluded markers (no mutation model explains them; LR 0): TH01');
    const table = within(section.getByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    const row = (name: string) => table.getByRole('rowheader', { name }).closest('tr')!;
    expect(within(row('FGA')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['21, 24', '20, 22', '21, 23', '3.00e-7', '6.00e-6', '5.00e-2', 'needs a mutation']);
    expect(row('FGA')).toHaveClass('calculator__inconsistent');
    expect(within(row('TH01')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['6, 9.3', '7, 8', '6, 7', '0.00e+0', '4.00e-5', '0.00e+0', 'excluded']);
    expect(row('TH01')).toHaveClass('calculator__excluded');
    expect(within(row('D3S1358')).getAllByRole('cell').at(-1)).toHaveTextContent(/^consistent$/);
    expect(row('D3S1358')).not.toHaveAttribute('class');
    expect(within(row('Amelogenin')).getAllByRole('cell').at(-1)).toHaveTextContent('not evaluated: no allele frequencies for Amelogenin in FBI 2015 Caucasian');
  });

  it('sets the LR over each population side by side', () => {
    render(<AnalysisResultView result={RESULT} />);
    const table = within(screen.getByRole('table', { name: 'LR per population' }));
    expect(table.getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['FBI 2015 Caucasian0.00e+0–', 'FBI 2015 African American0.00e+0–']);
  });
});
