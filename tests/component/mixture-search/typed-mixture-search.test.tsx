/**
 * Issue 17: the mixture search of a typed mixture (route MixtureSearch, linked from the keyboard search), with fake
 * calls: the first replicate is typed per marker of a chemistry and sent as `{ markers: [...] }`; the machine is real.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { MixtureSearchAnswer, MixtureSearchBody } from '../../../core/schemas/mixtures';
import type { CalculatorCalls } from '../../../src/analyses/calculator-api';
import type { SearchChemistry } from '../../../src/keyboard-search/keyboard-search-api';
import type { TypedMixtureSearchOptions } from '../../../src/mixture-search/mixture-search-api';
import { TypedMixtureSearch } from '../../../src/mixture-search/mixture-search-page';
import { MIXTURE_ORG, SEARCH_ANALYSES, SEARCH_ANSWER, SEARCH_POPULATIONS } from '../../../stories/mixture-search/mixture-search-fixtures';

const chemistry = (id: string, name: string, markers: string[]) =>
  ({ id, name, kind: 'Autosomal', markers: markers.map((m, i) => ({ id: `${id}-${i}`, name: m, kind: 'Autosomal', multiCopy: false })) }) as unknown as SearchChemistry;
const OPTIONS: TypedMixtureSearchOptions = {
  chemistries: [chemistry('c1', 'Identifiler', ['D3S1358', 'vWA', 'FGA']), chemistry('c2', 'GlobalFiler', ['D3S1358', 'TH01', 'SE33'])],
  analyses: SEARCH_ANALYSES,
  populations: SEARCH_POPULATIONS,
};

function renderTyped() {
  const sent: MixtureSearchBody[] = [];
  const calls = {
    calculator: { profiles: async () => ({ items: [], count: 0 }) } as unknown as CalculatorCalls,
    search: async (body: MixtureSearchBody): Promise<MixtureSearchAnswer> => (sent.push(body), SEARCH_ANSWER),
  };
  const location = memoryLocation({ path: `/${MIXTURE_ORG}/mixture-search` });
  render(
    <Router hook={location.hook}>
      <TypedMixtureSearch orgId={MIXTURE_ORG} options={OPTIONS} calls={calls} />
    </Router>,
  );
  return { sent };
}

describe('the mixture search of a typed mixture', () => {
  it('types the first replicate per marker of the chosen chemistry and sends it as markers', async () => {
    const { sent } = renderTyped();
    const evidence = within(screen.getByRole('group', { name: 'Evidence' }));
    const first = within(evidence.getByRole('group', { name: 'Replicate 1 (typed)' }));
    expect(first.getAllByRole('textbox').map((b) => (b as HTMLInputElement).labels![0]!.textContent)).toEqual(['D3S1358', 'vWA', 'FGA']);
    // The first replicate cannot be removed.
    expect(first.queryByRole('button', { name: /Remove/ })).toBeNull();

    await userEvent.selectOptions(screen.getByLabelText('Chemistry'), 'GlobalFiler');
    const typed = within(within(screen.getByRole('group', { name: 'Evidence' })).getByRole('group', { name: 'Replicate 1 (typed)' }));
    expect(typed.getAllByRole('textbox').map((b) => (b as HTMLInputElement).labels![0]!.textContent)).toEqual(['D3S1358', 'TH01', 'SE33']);

    await userEvent.click(screen.getByRole('checkbox', { name: SEARCH_POPULATIONS[0]!.name }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(sent).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Evidence: Type the alleles of at least one marker');

    await userEvent.type(typed.getByLabelText('D3S1358'), '15, 16 17');
    await userEvent.type(typed.getByLabelText('SE33'), '21');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('region', { name: 'Candidates' })).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.organizationId).toBe(MIXTURE_ORG);
    expect(sent[0]!.replicates).toEqual([{ markers: [{ marker: 'D3S1358', alleles: ['15', '16', '17'] }, { marker: 'SE33', alleles: ['21'] }] }]);
  });
});
