/**
 * Issue 17 in the calculator's result view, on a result as the API answers it: a mixture of three contributors with a
 * second replicate and a known contributor, drop-out estimated per hypothesis, a marker not weighed.
 */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../../core/schemas/analyses';
import { AnalysisResultView } from '../../../src/analyses/analysis-result-view';
import { MIXTURE_LR, MIXTURE_POPULATION, MIXTURE_RESULT, mixtureMarker } from '../../../stories/analyses/mixture-fixtures';

/** The section of one population's result. */
const populationSection = (name = 'FBI 2015 Caucasian') => within(screen.getByRole('region', { name: `Result over ${name}` }));
/** A term's value in a description list. */
const described = (scope: ReturnType<typeof within>, term: string) => scope.getByText(term, { selector: 'dt' }).nextElementSibling!;
/** JavaScript's exponent form (1.76e+1), which no figure of the view may use. */
const E_NOTATION = /\d\.?\d*e[+-]\d/;

describe('the result of a mixture run', () => {
  it('states both hypotheses, the LR in scientific notation and log10 LR', () => {
    render(<AnalysisResultView result={MIXTURE_RESULT} />);
    const section = populationSection();
    const hypotheses = within(section.getByRole('group', { name: 'Hypotheses over FBI 2015 Caucasian' }));
    expect(hypotheses.getByText('Hp:').parentElement).toHaveTextContent('Hp: the person of interest, 1 known contributor and 1 unknown');
    expect(hypotheses.getByText('Hd:').parentElement).toHaveTextContent('Hd: 1 known contributor and 2 unknowns');
    // LR = 50.2 × 0.120 × 2.92 = 17.6: 1.76 × 10 with the exponent 1 raised.
    const lr = described(section, 'Likelihood ratio (Hp / Hd)');
    expect(lr).toHaveTextContent(/^1\.76 × 101$/);
    expect(lr.querySelector('sup')).toHaveTextContent(/^1$/);
    expect(described(section, 'log10 LR')).toHaveTextContent(/^1\.24$/);
    expect(screen.getByRole('region', { name: 'Result over FBI 2015 Caucasian' }).textContent).not.toMatch(E_NOTATION);
  });

  it('puts both drop-out estimates beside the LR: maximum likelihood, the conservative 95th percentile, simulations accepted of those tried', () => {
    render(<AnalysisResultView result={MIXTURE_RESULT} />);
    const table = within(populationSection().getByRole('table', { name: 'Drop-out estimates' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Hypothesis', 'Maximum likelihood', 'Conservative (95th percentile)', 'Accepted / tried']);
    expect(table.getAllByRole('row').slice(1).map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Hp', '0.0812', '0.204', '1,874 / 10,000'],
      ['Hd', '0.123', '0.256', '1,312 / 10,000'],
    ]);
    expect(populationSection().getByText('Simulations accepted when they reproduce the 9 alleles seen; seed 17.')).toBeInTheDocument();
  });

  it('says when no simulated drop-out reproduced the evidence', () => {
    const estimates = MIXTURE_LR.estimates.map((e) => (e.hypothesis === 'Hd' ? { ...e, conservative: null, accepted: 0 } : e));
    render(<AnalysisResultView result={{ ...MIXTURE_RESULT, populations: [{ ...MIXTURE_POPULATION, mixture: { ...MIXTURE_LR, estimates } }] }} />);
    const hd = within(populationSection().getByRole('rowheader', { name: 'Hd' }).closest('tr')!);
    expect(hd.getAllByRole('cell').map((c) => c.textContent)).toEqual(['0.123', 'none reproduced the evidence', '0 / 10,000']);
  });

  it('lists every parameter used: the drop-out of each contributor under Hp and under Hd, drop-in, θ, both switches, the population and its minimum allele frequency', () => {
    render(<AnalysisResultView result={MIXTURE_RESULT} />);
    const parameters = within(populationSection().getByRole('region', { name: 'Parameters used over FBI 2015 Caucasian' }));
    const value = (term: string) => described(parameters, term).textContent;
    expect(value('Contributors')).toBe('3');
    expect(value('Drop-out')).toBe('Estimated — maximum likelihood per hypothesis');
    // Under Hd an unknown takes the person of interest's place.
    expect([...described(parameters, 'Drop-out under Hp').children].map((c) => c.textContent)).toEqual(['Person of interest 0.0812', 'Known contributor 1 0.0812', 'Unknown 1 0.0812']);
    expect([...described(parameters, 'Drop-out under Hd').children].map((c) => c.textContent)).toEqual(['Unknown 1 0.123', 'Known contributor 1 0.123', 'Unknown 2 0.123']);
    expect(value('Drop-in (c)')).toBe('0.05');
    expect(value('θ')).toBe('0.01');
    expect(value('Person of interest counted under Hd (θ)')).toBe('yes');
    expect(value('Frequencies normalized')).toBe('no');
    expect(value('Population')).toBe('FBI 2015 Caucasian');
    expect(value('Minimum allele frequency')).toBe('0.00155');
  });

  it('names a fixed drop-out per contributor', () => {
    const parametersUsed = { ...MIXTURE_LR.parameters, dropout: { mode: 'fixed' as const, values: [0.05, 0.1, 0.2] }, dropoutHp: [0.05, 0.1, 0.2], dropoutHd: [0.05, 0.1, 0.2], normalizeFrequencies: true, personOfInterestTypedUnderHd: false };
    render(<AnalysisResultView result={{ ...MIXTURE_RESULT, populations: [{ ...MIXTURE_POPULATION, mixture: { ...MIXTURE_LR, parameters: parametersUsed } }] }} />);
    const parameters = within(populationSection().getByRole('region', { name: 'Parameters used over FBI 2015 Caucasian' }));
    expect(described(parameters, 'Drop-out')).toHaveTextContent('Fixed, one value per contributor');
    expect([...described(parameters, 'Drop-out under Hp').children].map((c) => c.textContent)).toEqual(['Person of interest 0.05', 'Known contributor 1 0.1', 'Unknown 1 0.2']);
    expect(described(parameters, 'Person of interest counted under Hd (θ)')).toHaveTextContent('no');
    expect(described(parameters, 'Frequencies normalized')).toHaveTextContent('yes');
  });

  it('shows per marker the alleles of each replicate, the typed persons, what they explain, what dropped out and what no one carries, both likelihoods and the LR', () => {
    render(<AnalysisResultView result={MIXTURE_RESULT} />);
    const table = within(populationSection().getByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Marker',
      'Alleles seen',
      'Person of interest',
      'Known contributors',
      'Explained',
      'Dropped out',
      'Unexplained (drop-in or unknown)',
      'Pr(E|Hp)',
      'Pr(E|Hd)',
      'LR',
    ]);
    const cells = (marker: string) => within(table.getByRole('rowheader', { name: marker }).closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    // vWA: 4.2e-6 / 3.5e-5 = 0.12; the person of interest's 17 dropped out, 19 a drop-in or the unknown's.
    expect(cells('vWA')).toEqual(['R1: 16, 18, 19R2: 16, 18', '16, 17', 'K1: 18', '16, 18', '17', '19', '4.20 × 10-6', '3.50 × 10-5', '1.20 × 10-1']);
    expect(cells('D3S1358').slice(3, 6)).toEqual(['14, 15, 16, 17', '–', '–']);
    expect(table.getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['D3S1358', 'vWA', 'TH01']);
  });

  it('names the markers not weighed and why', () => {
    render(<AnalysisResultView result={MIXTURE_RESULT} />);
    const skipped = within(populationSection().getByRole('region', { name: 'Markers not weighed over FBI 2015 Caucasian' }));
    expect(skipped.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['D2S441: the person of interest is not typed here']);
  });

  it('leaves out the known contributors’ column without any, shows a single replicate’s alleles as one list and marks a marker of LR 0', () => {
    const excluding = mixtureMarker('FGA', [['20', '22']], ['21', '24'], [], { explained: [], droppedOut: ['21', '24'], unexplained: ['20', '22'] }, 0, 3.1e-4);
    const mixture = { ...MIXTURE_LR, markers: [excluding], skippedMarkers: [], lr: 0, log10: null };
    const result: AnalysisResult = { ...MIXTURE_RESULT, roles: MIXTURE_RESULT.roles.slice(0, 2), populations: [{ ...MIXTURE_POPULATION, combinedIndex: 0, log10: null, mixture }] };
    render(<AnalysisResultView result={result} />);
    const section = populationSection();
    const table = within(section.getByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    expect(table.queryByRole('columnheader', { name: 'Known contributors' })).toBeNull();
    const row = table.getByRole('rowheader', { name: 'FGA' }).closest('tr')!;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['20, 22', '21, 24', '–', '21, 24', '20, 22', '0', '3.10 × 10-4', '0']);
    expect(row).toHaveClass('calculator__excluded');
    expect(described(section, 'Likelihood ratio (Hp / Hd)')).toHaveTextContent(/^0$/);
    expect(described(section, 'log10 LR')).toHaveTextContent(/^–$/);
    expect(section.queryByRole('region', { name: /Markers not weighed/ })).toBeNull();
  });

  it('sets the LR over each population side by side, in scientific notation', () => {
    const second = { ...MIXTURE_POPULATION, populationId: '3d0f4a5b-6c7d-4e8f-9091-a2b3c4d5e6f7', populationName: 'FBI 2015 African American', combinedIndex: 0.0342, log10: Math.log10(0.0342) };
    render(<AnalysisResultView result={{ ...MIXTURE_RESULT, populations: [MIXTURE_POPULATION, second] }} />);
    const table = within(screen.getByRole('table', { name: 'LR per population' }));
    expect(table.getAllByRole('row').slice(1).map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['FBI 2015 Caucasian', '1.76 × 101', '1.24'],
      ['FBI 2015 African American', '3.42 × 10-2', '-1.47'],
    ]);
    expect(screen.getByRole('region', { name: 'Result over FBI 2015 African American' })).toBeInTheDocument();
  });

  it('names the replicate and the known contributor with their samples above the result', () => {
    render(<AnalysisResultView result={MIXTURE_RESULT} />);
    expect(screen.getByText(/^Evidence: STAIN-1 \(case MX-3\)/)).toHaveTextContent(
      'Evidence: STAIN-1 (case MX-3) · Person of interest: SUSPECT-A (case MX-3) · Evidence (replicate 2): STAIN-1-R2 (case MX-3) · Known contributor 1: VICTIM-B (case MX-3)',
    );
  });
});
