/**
 * Issue 17: the mixture search page as a user sees it, with fake calls (the server's side is tested in
 * tests/unit/server; mixture-search-route.test.tsx drives the real one); the machine is real.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { MixtureSearchAnswer, MixtureSearchBody } from '../../../core/schemas/mixtures';
import type { ProfileWithMarkers } from '../../../core/schemas/profiles';
import type { CalculatorCalls } from '../../../src/analyses/calculator-api';
import type { MixtureSearchOptions } from '../../../src/mixture-search/mixture-search-api';
import { MixtureSearch } from '../../../src/mixture-search/mixture-search-page';
import { MIXTURE_ORG, SEARCH_ANALYSES, SEARCH_ANSWER, SEARCH_EVIDENCE, SEARCH_POPULATIONS, SEARCH_PROFILES } from '../../../stories/mixture-search/mixture-search-fixtures';

const OPTIONS: MixtureSearchOptions = {
  evidence: { ...SEARCH_PROFILES.evidence, markerValues: SEARCH_EVIDENCE.markers.map((marker, i) => ({ markerId: `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`, marker, alleles: ['12', '13', '14'] })) } as ProfileWithMarkers,
  analyses: SEARCH_ANALYSES,
  populations: SEARCH_POPULATIONS,
};
const PICKABLE = [SEARCH_PROFILES.evidence, SEARCH_PROFILES.replicate, SEARCH_PROFILES.victim];

/** A 400 as the API client rejects with (src/api/middleware/api-error.ts). */
const badRequest = (error: string, details?: { path: string; message: string }[]) => Object.assign(new Error('POST /api/mixture-search failed with status 400'), { status: 400, serverMessage: error, body: { error, ...(details ? { details } : {}) } });

/** Fake calls: the pickers' profiles matching the search, and a search that records each request and answers with `answer` (or throws it). */
function renderSearch(answers: ((body: MixtureSearchBody, signal?: AbortSignal) => Promise<MixtureSearchAnswer>)[] = [async () => SEARCH_ANSWER]) {
  const sent: MixtureSearchBody[] = [];
  const calls = {
    calculator: {
      profiles: async (_org: string, _case: string | null, _kind: string, search: string) => {
        const items = PICKABLE.filter((p) => p.profileId.includes(search.trim()));
        return { items, count: items.length };
      },
    } as unknown as CalculatorCalls,
    search: (body: MixtureSearchBody, signal?: AbortSignal) => {
      sent.push(body);
      return (answers[sent.length - 1] ?? answers.at(-1)!)(body, signal);
    },
  };
  const location = memoryLocation({ path: `/${MIXTURE_ORG}/cases/x/profiles/${SEARCH_EVIDENCE.id}/mixture-search` });
  render(
    <Router hook={location.hook}>
      <MixtureSearch orgId={MIXTURE_ORG} options={OPTIONS} calls={calls} />
    </Router>,
  );
  return { sent };
}

const parameters = () => within(screen.getByRole('group', { name: 'Mixture parameters' }));

/** Chooses a profile in a picker by typing its sample name, as a user would. */
async function choose(role: string, sampleName: string) {
  await userEvent.type(screen.getByLabelText(`Find a profile for ${role}`), sampleName);
  const select = screen.getByLabelText(role, { selector: 'select' });
  const name = `${sampleName} (case MX-3, approved)`;
  await waitFor(() => expect(within(select).getByRole('option', { name })).toBeInTheDocument());
  await userEvent.selectOptions(select, within(select).getByRole('option', { name }));
}

describe('the mixture search form', () => {
  it('opens on the evidence with the first mixture analysis, its parameters, the reference sample types and 50 candidates', () => {
    renderSearch();
    expect(screen.getByText('STAIN-1')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Evidence' })).toHaveTextContent('Replicate 1: STAIN-1 (case MX-3), the profile this search was opened from.');
    const p = parameters();
    expect(p.getByLabelText('Mixture analysis')).toHaveDisplayValue('Mixture, 2 contributors');
    expect(p.getByLabelText('Number of contributors')).toHaveValue('2');
    expect(p.getByRole('radio', { name: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' })).toBeChecked();
    expect(p.getByLabelText('Drop-in (c)')).toHaveValue('0.05');
    expect(p.getByLabelText('θ')).toHaveValue('0.01');
    const types = within(screen.getByRole('group', { name: 'Searched sample types' }));
    expect(types.getAllByRole('checkbox', { checked: true }).map((c) => (c as HTMLInputElement).labels![0]!.textContent)).toEqual(['Suspect, Known', 'Convicted Offender', 'Arrestee']);
    expect(screen.getByLabelText('Candidates to list (top N)')).toHaveValue('50');
    expect(screen.getByLabelText('Minimum compared markers')).toHaveValue('8');
    expect(screen.queryByRole('region', { name: 'Candidates' })).toBeNull();
  });

  it('takes another analysis’s parameters, keeps edits beside their messages, and brings the analysis’s back', async () => {
    renderSearch();
    await userEvent.selectOptions(parameters().getByLabelText('Mixture analysis'), 'Mixture, 3 contributors');
    expect(parameters().getByLabelText('Number of contributors')).toHaveValue('3');
    const theta = parameters().getByLabelText('θ');
    await userEvent.clear(theta);
    await userEvent.type(theta, '1.5');
    expect(theta).toHaveAttribute('aria-invalid', 'true');
    expect(theta).toHaveAccessibleDescription('Balding–Nichols co-ancestry correction. A number from 0 to below 1, e.g. 0.05');
    await userEvent.click(parameters().getByRole('button', { name: 'Use the analysis’s parameters' }));
    expect(parameters().getByLabelText('θ')).toHaveValue('0.01');
    expect(parameters().getByLabelText('θ')).not.toHaveAttribute('aria-invalid');
  });

  it('asks for one fixed drop-out per contributor, named candidate, known contributors, unknowns', async () => {
    renderSearch();
    await userEvent.selectOptions(parameters().getByLabelText('Mixture analysis'), 'Mixture, 3 contributors');
    await userEvent.click(screen.getByRole('button', { name: 'Add a stored known contributor' }));
    await userEvent.click(parameters().getByRole('radio', { name: 'Fixed, one value per contributor' }));
    const boxes = parameters().getAllByLabelText(/^Drop-out of /).map((box) => (box as HTMLInputElement).labels![0]!.textContent);
    expect(boxes).toEqual(['Drop-out of Candidate', 'Drop-out of Known contributor 1', 'Drop-out of Unknown 1']);
  });

  it('says at each field what is missing when Search is pressed, and sends nothing', async () => {
    const { sent } = renderSearch();
    await userEvent.click(screen.getByRole('button', { name: 'Add a stored replicate' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Convicted Offender' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Arrestee' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Suspect, Known' }));
    await userEvent.clear(screen.getByLabelText('Candidates to list (top N)'));
    await userEvent.type(screen.getByLabelText('Candidates to list (top N)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    const alert = within(await screen.findByRole('alert'));
    expect(alert.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Replicate 2: Choose a profile, or remove it',
      'Populations: Choose at least one population',
      'Searched sample types: Choose at least one sample type',
      'Candidates to list (top N): A whole number from 1 to 500',
    ]);
    expect(within(screen.getByRole('group', { name: 'Searched sample types' })).getByText('Choose at least one sample type')).toBeInTheDocument();
    expect(screen.getByLabelText('Candidates to list (top N)')).toHaveAccessibleDescription('Up to 500, the strongest first. A whole number from 1 to 500');
    expect(sent).toEqual([]);
  });

  it('offers no more than 9 further replicates', async () => {
    renderSearch();
    for (let i = 0; i < 9; i++) await userEvent.click(screen.getByRole('button', { name: 'Add a typed replicate' }));
    expect(screen.getByRole('group', { name: 'Replicate 10 (typed)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a typed replicate' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add a stored replicate' })).toBeDisabled();
  });
});

describe('running the mixture search', () => {
  it('sends a stored and a typed replicate, a known contributor and the parameters, then shows the ranked list', async () => {
    const { sent } = renderSearch();
    await userEvent.selectOptions(parameters().getByLabelText('Mixture analysis'), 'Mixture, 3 contributors');
    await userEvent.click(screen.getByRole('button', { name: 'Add a stored replicate' }));
    await choose('Replicate 2', 'STAIN-1-R2');
    await userEvent.click(screen.getByRole('button', { name: 'Add a typed replicate' }));
    const typed = within(screen.getByRole('group', { name: 'Replicate 3 (typed)' }));
    await userEvent.type(typed.getByLabelText('vWA'), '16, 18 19');
    await userEvent.type(typed.getByLabelText('TH01'), '6,9.3');
    await userEvent.click(screen.getByRole('button', { name: 'Add a stored known contributor' }));
    await choose('Known contributor 1', 'VICTIM-B');
    await userEvent.click(parameters().getByRole('radio', { name: 'Fixed, one value for all contributors' }));
    await userEvent.type(parameters().getByLabelText('Drop-out for all contributors'), '0,1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Synthetic demo population' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    const answer = within(await screen.findByRole('region', { name: 'Candidates' }));
    expect(sent).toEqual([
      {
        organizationId: MIXTURE_ORG,
        analysisId: SEARCH_ANALYSES[1]!.id,
        replicates: [
          { profileId: SEARCH_EVIDENCE.id },
          { profileId: SEARCH_PROFILES.replicate.id },
          {
            markers: [
              { marker: 'vWA', alleles: ['16', '18', '19'] },
              { marker: 'TH01', alleles: ['6', '9.3'] },
            ],
          },
        ],
        knownContributors: [{ profileId: SEARCH_PROFILES.victim.id }],
        setting: { contributors: 3, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false },
        populationIds: SEARCH_POPULATIONS.map((p) => p.id),
        searchedSampleTypes: ['Convicted Offender', 'Arrestee', 'Suspect, Known'],
        minMarkers: 8,
        limit: 50,
      },
    ]);

    const hypotheses = within(answer.getByRole('group', { name: 'Hypotheses' }));
    expect(hypotheses.getByText('the candidate, 1 known contributor and 1 unknown')).toBeInTheDocument();
    expect(hypotheses.getByText('1 known contributor and 2 unknowns')).toBeInTheDocument();
    const dropout = answer.getByLabelText('Drop-out used');
    expect(dropout).toHaveTextContent('Drop-out over FBI 2015 CaucasianHp: Candidate 0.21Known contributor 1 0.21Unknown 1 0.21Hd: Unknown in the candidate’s place 0.21Known contributor 1 0.21Unknown 1 0.21');
    expect(dropout).toHaveTextContent('Drop-out over Synthetic demo populationSynthetic data — not for casework');
    expect(answer.getByRole('status')).toHaveTextContent('412,530 profiles searched; showing the first 3, ranked by the smallest LR over the populations.');

    const table = answer.getByRole('table', { name: 'Mixture search candidates' });
    const rows = within(table).getAllByRole('row').slice(2);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['OFF-55120', 'ARR-0193', 'SUS-2231']);
    const first = within(rows[0]!);
    expect(first.getByRole('link', { name: 'OFF-55120' })).toHaveAttribute('href', `/${MIXTURE_ORG}/cases/9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d/profiles/4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a701`);
    expect(first.getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', 'OFF-1001', 'Convicted Offender', '2.88 × 1012', '12.46', 'p ≤ 2.1e-13', '19', '1.15 × 1012', '12.06', 'p ≤ 5.3e-13', '19']);
    // 10^1.37 = 23.4 reads 2.34 × 10¹.
    expect(within(rows[2]!).getAllByRole('cell')[3]).toHaveTextContent('2.34 × 101');
    // Never the e+ notation for an LR.
    expect(table.textContent).not.toMatch(/e\+/);
  });

  // Issue 30: Hd's drop-outs set as in the calculator, and both hypotheses' stated with the list.
  it('sends Hd’s drop-outs typed beside Hp’s, and states both hypotheses’ drop-outs with the list', async () => {
    const population = { ...SEARCH_ANSWER.populations[0]!, dropout: [0.1, 0.3], dropoutHd: [0.25, 0.3], dropoutHdRule: "Hd's drop-outs set by the user" };
    const { sent } = renderSearch([async () => ({ ...SEARCH_ANSWER, populations: [population] })]);
    await userEvent.click(parameters().getByRole('radio', { name: 'Fixed, one value per contributor' }));
    await userEvent.type(parameters().getByLabelText('Drop-out of Candidate'), '0.1');
    await userEvent.type(parameters().getByLabelText('Drop-out of Unknown 1'), '0.3');
    const hd = within(parameters().getByRole('group', { name: 'Drop-out under Hd (optional)' }));
    await userEvent.type(hd.getByLabelText('Drop-out under Hd of Unknown in the candidate’s place'), '0.25');
    await userEvent.type(hd.getByLabelText('Drop-out under Hd of Unknown 1'), '0,3');
    await userEvent.click(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    const answer = within(await screen.findByRole('region', { name: 'Candidates' }));
    expect(sent[0]!.setting?.dropout).toEqual({ mode: 'fixed', values: [0.1, 0.3], hdValues: [0.25, 0.3] });
    expect(answer.getByLabelText('Drop-out used')).toHaveTextContent("Drop-out over FBI 2015 CaucasianHp: Candidate 0.1Unknown 1 0.3Hd: Unknown in the candidate’s place 0.25Unknown 1 0.3Hd's drop-outs set by the user");
  });

  it('shows the server’s refusal at its fields and as a message, keeps every value, and sends the same search again', async () => {
    const { sent } = renderSearch([
      async () => {
        throw badRequest('Hp holds the candidate and 0 known contributor(s): the number of contributors must be at least 1.', [
          { path: '/setting/theta', message: 'Below 1' },
          { path: '/populationIds', message: 'Autosomal only' },
          { path: '/organizationId', message: 'Invalid input' },
        ]);
      },
      async () => SEARCH_ANSWER,
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Add a typed replicate' }));
    await userEvent.type(within(screen.getByRole('group', { name: 'Replicate 2 (typed)' })).getByLabelText('FGA'), '21, 24');
    await userEvent.click(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    const alert = within(await screen.findByRole('alert'));
    expect(alert.getByText('The mixture search failed: Hp holds the candidate and 0 known contributor(s): the number of contributors must be at least 1.')).toBeInTheDocument();
    expect(alert.getByText('/organizationId: Invalid input')).toBeInTheDocument();
    expect(parameters().getByLabelText('θ')).toHaveAccessibleDescription('Balding–Nichols co-ancestry correction. Below 1');
    expect(screen.getByText('Autosomal only')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Replicate 2 (typed)' })).getByLabelText('FGA')).toHaveValue('21, 24');
    expect(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' })).toBeChecked();

    await userEvent.click(alert.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Candidates' })).toBeInTheDocument();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('locks the form while it searches, and Cancel gives it back as it was', async () => {
    let aborted = false;
    renderSearch([(_, signal) => new Promise(() => signal?.addEventListener('abort', () => (aborted = true)))]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('button', { name: 'Searching…' })).toBeDisabled();
    expect(parameters().getByLabelText('θ')).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(aborted).toBe(true);
    expect(screen.getByRole('button', { name: 'Search' })).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' })).toBeChecked();
  });

  it('drops the list once the form changes', async () => {
    renderSearch();
    await userEvent.click(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('region', { name: 'Candidates' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Arrestee' }));
    expect(screen.queryByRole('region', { name: 'Candidates' })).toBeNull();
  });
});
