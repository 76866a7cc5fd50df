/**
 * Issue 31: HitView of a continuous mixture hit shows, per population, both LRs plainly named, both hypotheses'
 * fitted parameters and the way into the Continuous mixture calculator; a mixture hit's number is an LR, never "CI".
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { HitContinuous, type CalculatorPlace } from '../../../src/hits/hit-continuous';
import { HitPopulations } from '../../../src/hits/hit-populations';
import { CONTINUOUS_FBI, CONTINUOUS_HIT_CANDIDATE_ID, CONTINUOUS_HIT_STAIN_ID, CONTINUOUS_POPULATIONS, FBI_ID } from '../../../stories/hits/continuous-hit-fixtures';

const ORG = '6e7f8a9b-0c1d-4e2f-9a3b-5c6d7e8f9a01';
const PLACE: CalculatorPlace = { analysisGroupId: '7f8a9b0c-1d2e-4f3a-8b4c-6d7e8f9a0b12', analysisId: '8a9b0c1d-2e3f-4a4b-9c5d-7e8f9a0b1c23' };

function draw(findCalculator: () => Promise<CalculatorPlace | null>) {
  const location = memoryLocation({ path: `/${ORG}/hits/x`, record: true });
  render(
    <Router hook={location.hook}>
      <HitContinuous orgId={ORG} populations={CONTINUOUS_POPULATIONS} prefill={{ stainId: CONTINUOUS_HIT_STAIN_ID, candidateId: CONTINUOUS_HIT_CANDIDATE_ID }} findCalculator={findCalculator} />
    </Router>,
  );
  return location;
}

const figure = (block: HTMLElement, term: string) => within(block).getByText(term, { selector: 'dt' }).nextSibling;

describe('HitView of a continuous mixture hit', () => {
  it('shows per population the LR of the full fit under Hp beside the scan’s at Hd’s fit, and both hypotheses’ fitted parameters', () => {
    draw(async () => PLACE);
    const fbi = screen.getByRole('region', { name: 'Continuous model over FBI 2015 Caucasian' });
    expect(figure(fbi, 'LR of the full fit with the candidate under Hp')).toHaveTextContent('6.20e+8 (log10 8.79)');
    expect(figure(fbi, 'LR of the database scan at Hd’s fitted parameters')).toHaveTextContent('2.57e+8 (log10 8.41)');
    expect(within(fbi).getByText(/The scan put the candidate/)).toHaveTextContent('4 of 4 starts agree on the maximum (seed 1); converged after 57 iterations, 412 evaluations');

    const table = within(within(fbi).getByRole('table', { name: 'Parameters fitted by maximum likelihood over FBI 2015 Caucasian' }));
    const row = (name: string) => within(table.getByRole('rowheader', { name }).closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    expect(row('Mixture proportion 1 (Candidate / Contributor 1)')).toEqual(['0.6871', '0.7012']);
    expect(row('Mixture proportion 2 (Contributor 2 / Contributor 2)')).toEqual(['0.3129', '0.2988']);
    expect(row('Peak height expectation μ (RFU)')).toEqual(['1221.8', '1234.5']);
    expect(row('Coefficient of variation σ')).toEqual(['0.1766', '0.1834']);
    expect(row('Degradation slope β')).toEqual(['0.8307', '0.8123']);
    expect(row('Backward stutter ξB')).toEqual(['0.0698', '0.0712']);
    // Both fits the LR divides, with their maximised ln L (stored with the hit): ln L Hp − ln L Hd = ln 6.2e8.
    const hypotheses = within(within(fbi).getByRole('table', { name: 'Hypotheses over FBI 2015 Caucasian' }));
    const hypothesis = (name: string) => within(hypotheses.getByRole('rowheader', { name }).closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    expect(hypothesis('Hp')).toEqual(['Candidate, Contributor 2', '-392.136470', expect.stringMatching(/^4 of 4 starts agree/)]);
    expect(hypothesis('Hd')).toEqual(['Contributor 1, Contributor 2', '-412.381700', 'Maximum likelihood without the candidate']);
    // Forward stutter was not in the search's model: no row for it.
    expect(table.queryByRole('rowheader', { name: 'Forward stutter ξF' })).toBeNull();

    // Where no parameters explain the evidence with the candidate, it says so; the scan's number stays.
    const demo = screen.getByRole('region', { name: /^Continuous model over Synthetic demo population/ });
    expect(figure(demo, 'LR of the full fit with the candidate under Hp')).toHaveTextContent('None: no parameters explain the evidence with the candidate under Hp');
    expect(figure(demo, 'LR of the database scan at Hd’s fitted parameters')).toHaveTextContent('8.10e+9 (log10 9.91)');
    expect(within(within(demo).getByRole('table', { name: /^Hypotheses over/ })).getByRole('rowheader', { name: 'Hp' }).closest('tr')).toHaveTextContent('None: no parameters explain the evidence');
  });

  it('opens the Continuous mixture calculator with the hit’s stain, its candidate as person of interest and the reported population', async () => {
    const location = draw(async () => PLACE);
    await userEvent.click(screen.getByRole('button', { name: 'Open in the Continuous mixture calculator' }));
    await waitFor(() => expect(location.history!.at(-1)).toBe(`/${ORG}/analyses/${PLACE.analysisGroupId}/${PLACE.analysisId}?stain=${CONTINUOUS_HIT_STAIN_ID}&personOfInterest=${CONTINUOUS_HIT_CANDIDATE_ID}&population=${FBI_ID}`));
  });

  it('says why when the organization has no Continuous mixture analysis, and stays on the hit', async () => {
    const location = draw(vi.fn(async () => null));
    await userEvent.click(screen.getByRole('button', { name: 'Open in the Continuous mixture calculator' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No Continuous mixture analysis is available to this organization');
    expect(location.history).toEqual([`/${ORG}/hits/x`]);
  });

  it('shows nothing for a hit of another model', () => {
    const { container } = render(<HitContinuous orgId={ORG} populations={[{ ...CONTINUOUS_FBI, continuous: null }]} prefill={{ stainId: 'a', candidateId: 'b' }} findCalculator={async () => PLACE} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('a mixture hit’s number (a tester saw "99.99% (CI 6.20e+8)")', () => {
  it('is named LR in the populations table, even when stored with the old CI text; an identity hit keeps CI', () => {
    const { unmount } = render(<HitPopulations populations={CONTINUOUS_POPULATIONS} matchKind="mixture" />);
    const cells = (name: RegExp) => within(screen.getByRole('rowheader', { name }).closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells(/^FBI 2015 Caucasian/)[0]).toBe('99.99% (LR 6.20e+8)');
    expect(cells(/^Synthetic demo population/)[0]).toBe('99.99% (LR 8.10e+9)');
    expect(screen.queryByText(/\(CI /)).toBeNull();
    unmount();
    render(<HitPopulations populations={[CONTINUOUS_FBI]} matchKind="identity" />);
    expect(cells(/^FBI 2015 Caucasian/)[0]).toBe('99.99% (CI 6.20e+8)');
  });
});
