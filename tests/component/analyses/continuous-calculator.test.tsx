/**
 * Issue 31 in the calculator: a Continuous mixture analysis — the stain's replicates with heights, the persons, one
 * population, the model's settings, fixed parameters or a fit — what Run sends to POST continuous-lr, and what the
 * result shows (LR, parameters, deconvolution, PP-plot, EPG chart, a failed fit's reason). Calls are fakes; the
 * machine is real (the server's side is tests/unit/server/http/continuous-lr.test.ts).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ContinuousLrBody, ContinuousLrResult } from '../../../core/schemas/continuous';
import type { Population } from '../../../core/schemas/populations';
import type { Profile } from '../../../core/schemas/profiles';
import type { ContinuousPrefill, LoadedStain } from '../../../machines/continuousRun.machine';
import type { CalculatorCalls } from '../../../src/analyses/calculator-api';
import { ContinuousCalculator } from '../../../src/analyses/continuous-calculator';
import {
  CONTINUOUS_ANALYSIS_ID,
  CONTINUOUS_RESULT,
  FAILED_FIT_RESULT,
  LOADED_STAIN,
  POPULATION_ID,
  STAIN_ID,
  STAIN_WITHOUT_HEIGHTS,
  SUSPECT_ID,
  VICTIM_ID,
} from '../../../stories/analyses/continuous-fixtures';

const ORG = '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5';
const CASE_ID = '5c6d7e8f-9102-43b4-85c6-d7e8f90a1b2c';
const NO_HEIGHTS_ID = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d4';
const POPULATION = { id: POPULATION_ID, name: 'Norway (ESX 17)', kind: 'Autosomal' } as Population;
const profile = (id: string, profileId: string) => ({ id, profileId, caseNumber: 'OSL-31', status: 'approved', kind: 'Autosomal', caseId: CASE_ID }) as Profile;
const PROFILES = [profile(STAIN_ID, 'STAIN-07'), profile(NO_HEIGHTS_ID, 'STAIN-08'), profile(SUSPECT_ID, 'SUSPECT-1'), profile(VICTIM_ID, 'VICTIM-1')];

/** Fake calls: the case's profiles, one population, the stains, and a continuous call that records its body. */
function fakeCalls(answer: (body: ContinuousLrBody) => Promise<ContinuousLrResult> = async () => CONTINUOUS_RESULT) {
  const sent: ContinuousLrBody[] = [];
  const reports: { body: ContinuousLrBody; format: string }[] = [];
  const calls = {
    profiles: async (_org: string, _case: string | null, _kind: string, search: string) => {
      const items = PROFILES.filter((p) => p.profileId.includes(search.trim()));
      return { items, count: items.length };
    },
    populations: async () => ({ items: [POPULATION], count: 1 }),
    stain: async (id: string): Promise<LoadedStain> => (id === STAIN_ID ? LOADED_STAIN : STAIN_WITHOUT_HEIGHTS),
    profile: async (id: string) => PROFILES.find((p) => p.id === id)!,
    continuousLr: async (body: ContinuousLrBody) => {
      sent.push(body);
      return answer(body);
    },
    continuousReport: async (body: ContinuousLrBody, format: string) => {
      reports.push({ body, format });
      if (format === 'csv') throw Object.assign(new Error('400'), { status: 400, serverMessage: 'The population has no frequencies for D3S1358.' });
      return `continuous-lr.${format}`;
    },
  } as unknown as CalculatorCalls;
  return { calls, sent, reports };
}

function renderCalculator(answer?: (body: ContinuousLrBody) => Promise<ContinuousLrResult>, prefill?: ContinuousPrefill) {
  const fake = fakeCalls(answer);
  const view = render(<ContinuousCalculator orgId={ORG} analysisId={CONTINUOUS_ANALYSIS_ID} caseId={CASE_ID} calls={fake.calls} {...(prefill ? { prefill } : {})} />);
  return { ...fake, view };
}

/** Chooses a profile in a picker by typing its sample name, as a user would. */
async function choose(role: string, sampleName: string) {
  await userEvent.type(screen.getByLabelText(`Find a profile for ${role}`), sampleName);
  const select = screen.getByLabelText(role, { selector: 'select' });
  const name = `${sampleName} (case OSL-31, approved)`;
  await waitFor(() => expect(within(select).getByRole('option', { name })).toBeInTheDocument());
  await userEvent.selectOptions(select, within(select).getByRole('option', { name }));
}

const model = () => within(screen.getByRole('group', { name: 'Continuous model' }));

async function chooseAll() {
  await choose('Evidence', 'STAIN-07');
  await screen.findByRole('group', { name: 'Replicates of STAIN-07' });
  await choose('Person of interest', 'SUSPECT-1');
  await userEvent.click(await screen.findByRole('radio', { name: 'Norway (ESX 17)' }));
}

// Each test types into pickers as a user would: seconds on a loaded machine.
const TYPING = { timeout: 30_000 };

describe('the Continuous mixture calculator: its choices', TYPING, () => {
  it("reads the stain's replicates with their heights and its kit's thresholds, each replicate chosen", async () => {
    renderCalculator();
    await choose('Evidence', 'STAIN-07');
    const replicates = within(await screen.findByRole('group', { name: 'Replicates of STAIN-07' }));
    expect(replicates.getByRole('checkbox', { name: 'STAIN-07 run 1: 7 peaks with heights at 2 markers' })).toBeChecked();
    expect(replicates.getByRole('checkbox', { name: 'STAIN-07 run 2: 6 peaks with heights at 2 markers' })).toBeChecked();
    expect(replicates.getByText('Analytical threshold of PowerPlex ESX 17: 50 RFU; per dye green 60 RFU.')).toBeInTheDocument();
  });

  it('opened from a continuous hit, has the stain read, the candidate as person of interest and the population chosen: Run weighs them', async () => {
    const { sent } = renderCalculator(undefined, { stainId: STAIN_ID, personOfInterestId: SUSPECT_ID, populationId: POPULATION_ID });
    await screen.findByRole('group', { name: 'Replicates of STAIN-07' });
    await waitFor(() => expect(screen.getByLabelText('Evidence', { selector: 'select' })).toHaveDisplayValue('STAIN-07 (case OSL-31, approved)'));
    await waitFor(() => expect(screen.getByLabelText('Person of interest', { selector: 'select' })).toHaveDisplayValue('SUSPECT-1 (case OSL-31, approved)'));
    expect(await screen.findByRole('radio', { name: 'Norway (ESX 17)' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('region', { name: 'Continuous result' });
    expect(sent[0]).toMatchObject({ personOfInterest: { profileId: SUSPECT_ID }, populationId: POPULATION_ID });
    expect(sent[0]!.replicates.map((r) => r.name)).toEqual(['STAIN-07 run 1', 'STAIN-07 run 2']);
  });

  it('says when a stain has no peak heights, and lists what is missing when Run is pressed', async () => {
    renderCalculator();
    await choose('Evidence', 'STAIN-08');
    expect(await screen.findByText('STAIN-08 has no peak heights. The continuous model weighs peak heights: import the stain’s file with its heights.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      "STAIN-08 has no peak heights: the continuous model weighs them (import the stain's file with its heights)",
      'Choose a profile for Person of interest',
      'Choose a population',
    ]);
  });

  it('sends the chosen replicates, persons, population and model to POST continuous-lr: forward stutter brings backward stutter', async () => {
    const { sent } = renderCalculator();
    await chooseAll();
    await userEvent.click(screen.getByRole('checkbox', { name: 'STAIN-07 run 2: 6 peaks with heights at 2 markers' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a known contributor' }));
    await choose('Known contributor 1', 'VICTIM-1');
    await userEvent.click(model().getByRole('checkbox', { name: 'Forward stutter (one repeat longer; needs backward stutter)' }));
    expect(model().getByRole('checkbox', { name: 'Backward stutter (one repeat shorter)' })).toBeChecked();
    await userEvent.click(model().getByRole('checkbox', { name: 'Degradation (peak heights fall with fragment size)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('region', { name: 'Continuous result' });
    expect(sent).toHaveLength(1);
    const body = sent[0]!;
    expect(body.replicates.map((r) => r.name)).toEqual(['STAIN-07 run 1']);
    expect(body).toMatchObject({
      contributors: 2,
      personOfInterest: { profileId: SUSPECT_ID },
      knownContributors: [{ profileId: VICTIM_ID }],
      populationId: POPULATION_ID,
      model: { degradation: true, backwardStutter: true, forwardStutter: true },
      analyticalThreshold: 50,
      markerThresholds: [{ marker: 'TH01', threshold: 60 }],
      parameters: { mode: 'fit', starts: 4, seed: 1 },
      dropIn: 0.05,
      dropInLambda: 0.01,
      theta: 0.01,
    });
    expect(body.fragmentSizes.map((f) => f.marker)).toEqual(['D3S1358', 'TH01']);
  });

  it('weighs at fixed parameters per hypothesis, each wrong value named', async () => {
    const { sent } = renderCalculator();
    await chooseAll();
    await userEvent.click(model().getByRole('radio', { name: 'Fixed, as typed per hypothesis' }));
    const hp = model().getByLabelText('Mixture proportion of Person of interest (Hp)');
    await userEvent.clear(hp);
    await userEvent.type(hp, '0.8');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Hp: Mixture proportion: The mixture proportions add up to 1']);
    const other = model().getByLabelText('Mixture proportion of Unknown 1 (Hp)');
    await userEvent.clear(other);
    await userEvent.type(other, '0.2');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('region', { name: 'Continuous result' });
    expect(sent[0]!.parameters).toEqual({
      mode: 'fixed',
      hp: { mx: [0.8, 0.2], mu: 1000, sigma: 0.15, beta: 1, xiB: 0, xiF: 0 },
      hd: { mx: [0.5, 0.5], mu: 1000, sigma: 0.15, beta: 1, xiB: 0, xiF: 0 },
    });
  });

  it("shows the server's refusal with its reason, and Try again sends again", async () => {
    let refuse = true;
    const { sent } = renderCalculator(async () => {
      if (refuse) throw Object.assign(new Error('400'), { status: 400, serverMessage: 'D3S1358: degradation needs the fragment size of allele 14.' });
      return CONTINUOUS_RESULT;
    });
    await chooseAll();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('D3S1358: degradation needs the fragment size of allele 14.')).toBeInTheDocument();
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('region', { name: 'Continuous result' });
    expect(sent).toHaveLength(2);
  });
});

describe('the Continuous mixture calculator: its result', TYPING, () => {
  it('shows the LR in total and per marker, both log-likelihoods, how the fit searched, and every parameter fitted', async () => {
    renderCalculator();
    await chooseAll();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const result = within(await screen.findByRole('region', { name: 'Continuous result' }));
    expect(result.getByText('Likelihood ratio').nextElementSibling).toHaveTextContent('9.58 × 105');
    expect(result.getByText('log10 LR', { selector: 'dt' }).nextElementSibling).toHaveTextContent('5.98');
    const hypotheses = within(result.getByRole('table', { name: 'Hypotheses' }));
    const hp = within(hypotheses.getByRole('row', { name: /^Hp: The person of interest and 1 unknown/ }));
    expect(hp.getByText('-118.204000')).toBeInTheDocument();
    expect(hp.getByText('4 of 4 starts agree on the maximum (seed 1); converged after 41 iterations, 388 evaluations')).toBeInTheDocument();
    expect(hypotheses.getByRole('row', { name: /^Hd: 2 unknowns/ })).toHaveTextContent('3 of 4 starts agree');
    const parameters = within(result.getByRole('table', { name: 'Parameters fitted by maximum likelihood' }));
    expect(parameters.getByRole('row', { name: 'Mixture proportion 1 (Person of interest / Unknown 1) 0.78 0.781' })).toBeInTheDocument();
    expect(parameters.getByRole('row', { name: 'Peak height expectation μ (RFU) 1866.4 1866.4' })).toBeInTheDocument();
    expect(parameters.getByRole('row', { name: 'Coefficient of variation σ 0.081 0.081' })).toBeInTheDocument();
    const markers = within(result.getByRole('table', { name: 'Per marker' }));
    expect(markers.getByRole('row', { name: /^D3S1358/ })).toHaveTextContent('8.98 × 102');
    expect(markers.getByRole('row', { name: /^TH01/ })).toHaveTextContent('3.03');
    expect(result.getByText('Not weighed: AMEL (no allele frequencies for AMEL in Norway (ESX 17))')).toBeInTheDocument();
    expect(result.getByText('Every weight in double precision (EuroForMix keeps combination weights in single precision).')).toBeInTheDocument();
  });

  it('shows the deconvolution: per unknown and marker the most probable genotypes with their probabilities', async () => {
    renderCalculator();
    await chooseAll();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const hd = within(await screen.findByRole('table', { name: 'Deconvolution under Hd: the most probable genotypes of each unknown contributor' }));
    expect(hd.getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['Unknown 1D3S135815/16 (0.995); 15/17 (0.003)', 'Unknown 2D3S135814/17 (0.981)']);
  });

  it('draws the PP-plot (a point per observed height, the diagonal and both envelopes) and the EPG chart (bars per replicate and expected, the threshold) under the hypothesis chosen', async () => {
    const { view } = renderCalculator();
    await chooseAll();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('region', { name: 'Continuous result' });
    const pp = screen.getByRole('img', { name: 'PP-plot under Hp: 12 peak heights; none outside the Bonferroni envelope (α = 0.01/12)' });
    expect(pp.querySelectorAll('circle')).toHaveLength(12);
    expect(pp.querySelectorAll('.pp-plot__diagonal')).toHaveLength(1);
    expect(pp.querySelectorAll('.pp-plot__band')).toHaveLength(1);
    expect(pp.querySelectorAll('.pp-plot__bonferroni')).toHaveLength(2);
    const th01 = screen.getByRole('img', { name: 'TH01: observed and expected peak heights, analytical threshold 60 RFU' });
    // 6 and 9.3 in both replicates; the expected bar of 6, 9.3 and Q.
    expect(th01.querySelectorAll('.epg-chart__observed')).toHaveLength(4);
    expect(th01.querySelectorAll('.epg-chart__expected')).toHaveLength(3);
    expect(th01.querySelectorAll('.epg-chart__threshold')).toHaveLength(1);
    expect(screen.getByRole('img', { name: 'D3S1358: observed and expected peak heights, analytical threshold 50 RFU' }).querySelectorAll('.epg-chart__observed')).toHaveLength(8);
    await userEvent.click(screen.getByRole('radio', { name: 'Hd' }));
    expect(screen.getByRole('img', { name: /^PP-plot under Hd: 12 peak heights/ })).toBeInTheDocument();
    expect(view.container.querySelectorAll('.pp-plot')).toHaveLength(1);
  });

  it('shows a fit that explains nothing with its reason, and no LR', async () => {
    renderCalculator(async () => FAILED_FIT_RESULT);
    await chooseAll();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const result = within(await screen.findByRole('region', { name: 'Continuous result' }));
    expect(result.getByText('No likelihood ratio: Hp: no parameters explain the evidence.')).toBeInTheDocument();
    expect(result.getByRole('note')).toHaveTextContent('No parameters explain the evidence with the person of interest as a contributor');
    expect(result.getByRole('row', { name: /^Hp: The person of interest and 1 unknown/ })).toHaveTextContent('0 of 4 starts agree on the maximum (seed 1); did not converge after 41 iterations, 388 evaluations; No start reached a finite likelihood');
    expect(result.getByText('Likelihood ratio').nextElementSibling).toHaveTextContent('–');
    // The fit under Hd still validates.
    expect(screen.getByRole('img', { name: /^PP-plot under Hd/ })).toBeInTheDocument();
  });

  it('downloads the result as a PDF or CSV by sending the run\'s own request to the report call, a refusal shown', async () => {
    const { sent, reports } = renderCalculator();
    await chooseAll();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('region', { name: 'Continuous result' });
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Saved continuous-lr.pdf')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('The population has no frequencies for D3S1358.')).toBeInTheDocument();
    expect(reports.map((r) => r.format)).toEqual(['pdf', 'csv']);
    expect(reports[0]!.body).toEqual(sent[0]);
  });
});
