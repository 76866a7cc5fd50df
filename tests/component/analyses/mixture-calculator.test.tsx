/**
 * Issue 17 in the calculator: a mixture analysis's further replicates, known contributors and parameters form, and
 * what Run sends. The calls are fakes (the server's side is tested in tests/unit/server/http); the machine is real.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../../core/schemas/analyses';
import type { Population } from '../../../core/schemas/populations';
import type { Profile } from '../../../core/schemas/profiles';
import type { AnalyzeRequest } from '../../../machines/analysisRun.machine';
import type { CalculatorCalls } from '../../../src/analyses/calculator-api';
import { Calculator } from '../../../src/analyses/calculator-page';
import { MIXTURE_ANALYSIS, MIXTURE_PROFILES, MIXTURE_RESULT, MIXTURE_SETTING } from '../../../stories/analyses/mixture-fixtures';

const ORG = '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5';
const CASE_ID = '9e6f0a1b-2c3d-4e45-8f60-718293a4b5c6';
const POPULATION = { id: '2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6', name: 'FBI 2015 Caucasian', kind: 'Autosomal' } as Population;

const analysis = (contributors: number): Analysis => ({
  id: MIXTURE_ANALYSIS.id,
  name: `Mixture, ${contributors} contributors`,
  label: '',
  kind: 'Mixture',
  profileKind: 'Autosomal',
  roles: ['Evidence', 'Person of interest'],
  threshold: 10_000,
  active: true,
  analysisGroupId: '3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d',
  analysisGroupName: 'Mixtures',
  version: 1,
  formulaCount: 0,
  constantCount: 0,
  missingPatterns: [],
  pedigree: null,
  mutation: null,
  mixture: { ...MIXTURE_SETTING, contributors },
});

const profile = (id: string, profileId: string) => ({ id, profileId, caseNumber: 'MX-3', status: 'approved', kind: 'Autosomal', caseId: CASE_ID }) as Profile;
const PROFILES = [...MIXTURE_PROFILES.map((p) => profile(p.id, p.sampleName)), profile('0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d4', 'STAIN-1-R3')];

/** Fake calls: the case's profiles matching the search, one population, and an analyze call that records its request. */
function fakeCalls() {
  const sent: AnalyzeRequest[] = [];
  const calls = {
    profiles: async (_org: string, _case: string | null, _kind: string, search: string) => {
      const items = PROFILES.filter((p) => p.profileId.includes(search.trim()));
      return { items, count: items.length };
    },
    populations: async () => ({ items: [POPULATION], count: 1 }),
    analyze: async (request: AnalyzeRequest) => {
      sent.push(request);
      return MIXTURE_RESULT;
    },
    report: async () => 'analysis.pdf',
  } as unknown as CalculatorCalls;
  return { calls, sent };
}

function renderCalculator(contributors = 3) {
  const fake = fakeCalls();
  render(<Calculator orgId={ORG} analysis={analysis(contributors)} caseId={CASE_ID} calls={fake.calls} />);
  return fake;
}

const form = () => within(screen.getByRole('group', { name: 'Mixture parameters' }));

/** Chooses a profile in a picker by typing its sample name, as a user would. */
async function choose(role: string, sampleName: string) {
  await userEvent.type(screen.getByLabelText(`Find a profile for ${role}`), sampleName);
  const select = screen.getByLabelText(role, { selector: 'select' });
  const name = `${sampleName} (case MX-3, approved)`;
  await waitFor(() => expect(within(select).getByRole('option', { name })).toBeInTheDocument());
  await userEvent.selectOptions(select, within(select).getByRole('option', { name }));
}

describe('the calculator of a mixture analysis: its parameters', () => {
  it('starts from the analysis’s parameters', () => {
    renderCalculator();
    const f = form();
    expect(f.getByLabelText('Number of contributors')).toHaveValue('3');
    expect(f.getByRole('radio', { name: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' })).toBeChecked();
    expect(f.getByLabelText('Drop-in (c)')).toHaveValue('0.05');
    expect(f.getByLabelText('θ')).toHaveValue('0.01');
    expect(f.getByRole('checkbox', { name: 'Person of interest counted under Hd (θ)' })).toBeChecked();
    expect(f.getByRole('checkbox', { name: 'Normalize frequencies (after the minimum allele frequency rule)' })).not.toBeChecked();
    expect(f.queryByLabelText(/^Drop-out/)).toBeNull();
  });

  it('asks for one drop-out per contributor, named in the order person of interest, known contributors, unknowns, and follows the number of contributors', async () => {
    renderCalculator();
    await userEvent.click(screen.getByRole('button', { name: 'Add a known contributor' }));
    await userEvent.click(form().getByRole('radio', { name: 'Fixed, one value per contributor' }));
    const boxes = () => form().queryAllByLabelText(/^Drop-out of /).map((box) => (box as HTMLInputElement).labels![0]!.textContent);
    expect(boxes()).toEqual(['Drop-out of Person of interest', 'Drop-out of Known contributor 1', 'Drop-out of Unknown 1']);
    await userEvent.selectOptions(form().getByLabelText('Number of contributors'), '4');
    expect(boxes()).toEqual(['Drop-out of Person of interest', 'Drop-out of Known contributor 1', 'Drop-out of Unknown 1', 'Drop-out of Unknown 2']);
    await userEvent.click(form().getByRole('radio', { name: 'Fixed, one value for all contributors' }));
    expect(boxes()).toEqual([]);
    expect(form().getByLabelText('Drop-out for all contributors')).toHaveValue('');
  });

  it("offers Hd's own drop-outs with a drop-out per contributor, blank for LRmix's convention, and asks for each once one is typed (issue 30)", async () => {
    renderCalculator();
    await userEvent.click(screen.getByRole('button', { name: 'Add a known contributor' }));
    await userEvent.click(form().getByRole('radio', { name: 'Fixed, one value per contributor' }));
    const hd = () => form().queryAllByLabelText(/^Drop-out under Hd of /);
    expect(hd().map((box) => (box as HTMLInputElement).labels![0]!.textContent)).toEqual([
      'Drop-out under Hd of Unknown in the person of interest’s place',
      'Drop-out under Hd of Known contributor 1',
      'Drop-out under Hd of Unknown 1',
    ]);
    expect(hd().map((box) => (box as HTMLInputElement).value)).toEqual(['', '', '']);
    await userEvent.type(hd()[0]!, '0.3');
    expect(hd()[1]).toHaveAccessibleDescription(/Required/);
  });

  it('says beside a box why its value is wrong, and names the field when Run is pressed', async () => {
    renderCalculator();
    const theta = form().getByLabelText('θ');
    await userEvent.clear(theta);
    await userEvent.type(theta, '1.5');
    expect(theta).toHaveAttribute('aria-invalid', 'true');
    expect(theta).toHaveAccessibleDescription('Balding–Nichols co-ancestry correction. A number from 0 to below 1, e.g. 0.05');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getAllByRole('listitem').map((li) => li.textContent)).toContain('θ: A number from 0 to below 1, e.g. 0.05');
  });

  it('brings back the analysis’s parameters', async () => {
    renderCalculator();
    await userEvent.click(form().getByRole('radio', { name: 'Estimated — maximum likelihood per hypothesis' }));
    await userEvent.type(form().getByLabelText('Drop-in (c)'), '5');
    await userEvent.click(form().getByRole('checkbox', { name: 'Normalize frequencies (after the minimum allele frequency rule)' }));
    expect(form().getByLabelText('Drop-in (c)')).toHaveValue('0.055');
    await userEvent.click(form().getByRole('button', { name: 'Use the analysis’s parameters' }));
    expect(form().getByLabelText('Drop-in (c)')).toHaveValue('0.05');
    expect(form().getByRole('radio', { name: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' })).toBeChecked();
    expect(form().getByRole('checkbox', { name: 'Normalize frequencies (after the minimum allele frequency rule)' })).not.toBeChecked();
  });
});

describe('the calculator of a mixture analysis: replicates and known contributors', () => {
  it('runs with a second replicate, a known contributor and the edited parameters, sends them all and shows the result', async () => {
    const { sent } = renderCalculator();
    await choose('Evidence', 'STAIN-1');
    await choose('Person of interest', 'SUSPECT-A');
    await userEvent.click(screen.getByRole('button', { name: 'Add a replicate of the evidence' }));
    await choose('Evidence (replicate 2)', 'STAIN-1-R2');
    await userEvent.click(screen.getByRole('button', { name: 'Add a known contributor' }));
    await choose('Known contributor 1', 'VICTIM-B');
    await userEvent.click(form().getByRole('radio', { name: 'Fixed, one value for all contributors' }));
    await userEvent.type(form().getByLabelText('Drop-out for all contributors'), '0,1');
    await userEvent.click(form().getByRole('checkbox', { name: 'Person of interest counted under Hd (θ)' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));

    expect(await screen.findByRole('region', { name: 'Result over FBI 2015 Caucasian' })).toBeInTheDocument();
    expect(sent).toEqual([
      {
        analysisId: MIXTURE_ANALYSIS.id,
        body: {
          profileIds: [MIXTURE_PROFILES[0].id, MIXTURE_PROFILES[1].id],
          populationIds: [POPULATION.id],
          mixture: {
            replicateProfileIds: [MIXTURE_PROFILES[2].id],
            knownContributorIds: [MIXTURE_PROFILES[3].id],
            // The drop-out estimates are not asked for: the drop-out is fixed.
            estimateDropout: false,
            setting: { contributors: 3, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: false, normalizeFrequencies: false },
          },
        },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  });

  it('lists what keeps Run from sending: a replicate without a profile, fewer contributors than Hp holds', async () => {
    const { sent } = renderCalculator(2);
    await choose('Evidence', 'STAIN-1');
    await choose('Person of interest', 'SUSPECT-A');
    await userEvent.click(screen.getByRole('button', { name: 'Add a replicate of the evidence' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a known contributor' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a known contributor' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Choose a profile for Evidence (replicate 2), or remove it',
      'Choose a profile for Known contributor 1, or remove it',
      'Choose a profile for Known contributor 2, or remove it',
      'Number of contributors: At least 3: the person of interest and 2 known contributors',
    ]);
    expect(form().getByLabelText('Number of contributors')).toHaveAccessibleDescription('At least 3: the person of interest and 2 known contributors');
    expect(sent).toEqual([]);
  });

  it('removes a replicate, the next one moving up', async () => {
    renderCalculator();
    await userEvent.click(screen.getByRole('button', { name: 'Add a replicate of the evidence' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a replicate of the evidence' }));
    await choose('Evidence (replicate 3)', 'STAIN-1-R3');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Evidence (replicate 2)' }));
    expect(screen.queryByRole('group', { name: 'Evidence (replicate 3)' })).toBeNull();
    expect(screen.getByLabelText('Evidence (replicate 2)', { selector: 'select' })).toHaveDisplayValue('STAIN-1-R3 (case MX-3, approved)');
  });

  it('offers no further known contributor beyond four', async () => {
    renderCalculator(5);
    const add = screen.getByRole('button', { name: 'Add a known contributor' });
    for (let i = 0; i < 4; i++) await userEvent.click(add);
    expect(screen.getByRole('group', { name: 'Known contributor 4' })).toBeInTheDocument();
    expect(add).toBeDisabled();
  });
});
