/**
 * Issue 31 in the mixture search: the model choice. The continuous model needs a stain with peak heights (said at
 * once when the stain has none, and nothing is sent); chosen on a stain with heights it sends `model: continuous`
 * with its parts, and the list shows the full-fit LR beside the scan's, with Hd's fit per population.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { MixtureSearchAnswer, MixtureSearchBody } from '../../../core/schemas/mixtures';
import type { ProfileWithMarkers } from '../../../core/schemas/profiles';
import type { CalculatorCalls } from '../../../src/analyses/calculator-api';
import type { MixtureSearchOptions } from '../../../src/mixture-search/mixture-search-api';
import { MixtureSearch } from '../../../src/mixture-search/mixture-search-page';
import { CONTINUOUS_SEARCH_ANSWER, MIXTURE_ORG, SEARCH_ANALYSES, SEARCH_EVIDENCE, SEARCH_POPULATIONS, SEARCH_PROFILES } from '../../../stories/mixture-search/mixture-search-fixtures';

const markerValues = SEARCH_EVIDENCE.markers.map((marker, i) => ({ markerId: `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`, marker, alleles: ['12', '13', '14'] }));
const peaks = (height: number | null) => [{ markerId: markerValues[0]!.markerId, marker: 'D3S1358', peaks: [{ allele: '12', height, size: null }] }];
const options = (height: number | null): MixtureSearchOptions => ({
  evidence: { ...SEARCH_PROFILES.evidence, markerValues, replicates: [{ name: 'run 1', markers: peaks(height) }] } as unknown as ProfileWithMarkers,
  analyses: SEARCH_ANALYSES,
  populations: SEARCH_POPULATIONS,
});

function renderSearch(height: number | null, answer: MixtureSearchAnswer = CONTINUOUS_SEARCH_ANSWER) {
  const sent: MixtureSearchBody[] = [];
  const calls = {
    calculator: { profiles: async () => ({ items: [], count: 0 }) } as unknown as CalculatorCalls,
    search: async (body: MixtureSearchBody) => {
      sent.push(body);
      return answer;
    },
  };
  const location = memoryLocation({ path: `/${MIXTURE_ORG}/cases/x/profiles/${SEARCH_EVIDENCE.id}/mixture-search` });
  render(
    <Router hook={location.hook}>
      <MixtureSearch orgId={MIXTURE_ORG} options={options(height)} calls={calls} />
    </Router>,
  );
  return { sent };
}

const model = () => within(screen.getByRole('group', { name: 'Model' }));

describe('the mixture search’s model', () => {
  it('says at once that a stain without peak heights cannot be weighed by the continuous model, and sends nothing', async () => {
    const { sent } = renderSearch(null);
    expect(model().getByRole('radio', { name: /^Semi-continuous/ })).toBeChecked();
    await userEvent.click(model().getByRole('radio', { name: /^Continuous/ }));
    expect(model().getByText(/STAIN-1 has no peak heights: the continuous model weighs them/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: SEARCH_POPULATIONS[0]!.name }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/Model: STAIN-1 has no peak heights/)).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    // Back to the semi-continuous model, the message goes.
    await userEvent.click(model().getByRole('radio', { name: /^Semi-continuous/ }));
    expect(screen.queryByText(/has no peak heights/)).toBeNull();
  });

  it('sends model continuous with its parts for a stain with heights, and lists the full-fit LR beside the scan’s', async () => {
    const { sent } = renderSearch(812);
    await userEvent.click(model().getByRole('radio', { name: /^Continuous/ }));
    expect(screen.queryByText(/has no peak heights/)).toBeNull();
    await userEvent.click(model().getByRole('checkbox', { name: /^Forward stutter/ }));
    expect(model().getByRole('checkbox', { name: /^Backward stutter/ })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: SEARCH_POPULATIONS[0]!.name }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('heading', { name: 'Candidates' });
    expect(sent[0]).toMatchObject({ model: 'continuous', continuous: { model: { degradation: false, backwardStutter: true, forwardStutter: true } } });
    expect(sent[0]!.continuous).not.toHaveProperty('analyticalThreshold');
    expect(screen.getAllByRole('columnheader', { name: 'LR (full fit)' })).toHaveLength(2);
    expect(screen.getAllByRole('columnheader', { name: 'Scan log10 LR' })).toHaveLength(2);
    const first = screen.getByRole('row', { name: /OFF-55120/ });
    expect(within(first).getByText('12.46')).toBeInTheDocument();
    expect(within(first).getByText('12.15')).toBeInTheDocument();
    expect(screen.getByText('Hd fitted over FBI 2015 Caucasian')).toBeInTheDocument();
    expect(screen.getAllByText(/mixture proportions 0\.620, 0\.260, 0\.120; μ 1180\.5 RFU/)).toHaveLength(2);
  });
});
