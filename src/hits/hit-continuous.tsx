import { useLocation } from 'wouter';
import type { PopulationFigures } from '../../core/schemas/hit-figures';
import type { ContinuousCandidateFigures } from '../../core/schemas/continuous-model';
import { ContinuousParametersTable, fitReportText, logLikelihoodText } from '../analyses/continuous-result';
import { log10Text } from '../analyses/result-format';
import { routes } from '../app/routes';
import { SyntheticLabel } from '../ui/synthetic-label';
import { ActionError, useAction } from './action-state';

/** Where the Continuous mixture calculator is: its analysis and group (null: the organization has none). */
export interface CalculatorPlace {
  analysisGroupId: string;
  analysisId: string;
}

/** What the calculator is opened with: the hit's stain, its candidate as person of interest, the population. */
export interface CalculatorPrefill {
  stainId: string;
  candidateId: string;
}

/** An LR given as its log10, as read: exponential form with two decimals, or 10^x past a double's range; a dash when none. */
export function lrFromLog10Text(log10: number | null): string {
  if (log10 === null || !Number.isFinite(log10)) return '–';
  const lr = 10 ** log10;
  return Number.isFinite(lr) && lr > 0 ? `${lr.toExponential(2)} (log10 ${log10Text(log10)})` : `10^${log10Text(log10)}`;
}

/** The contributors in the order of the mixture proportions: Hp the candidate, then the others; Hd the others only (known contributors first, as the search put them). */
const contributorsOf = (count: number, hypothesis: 'hp' | 'hd'): string[] =>
  Array.from({ length: count }, (_, i) => (hypothesis === 'hp' && i === 0 ? 'Candidate' : `Contributor ${i + 1}`));

function OpenInCalculator({ orgId, prefill, populationId, findCalculator }: { orgId: string; prefill: CalculatorPrefill; populationId: string | null; findCalculator(): Promise<CalculatorPlace | null> }) {
  const [, navigate] = useLocation();
  const action = useAction();
  const open = () =>
    action.run(async () => {
      const place = await findCalculator().catch((err: unknown) => {
        throw new Error(`The calculator cannot be found: ${err instanceof Error ? err.message : String(err)}`);
      });
      if (!place) return 'No Continuous mixture analysis is available to this organization: an administrator adds one under Analyses.';
      const query: Record<string, string> = { stain: prefill.stainId, personOfInterest: prefill.candidateId, ...(populationId ? { population: populationId } : {}) };
      navigate(routes.Analyses.href({ orgId, ...place }, query));
    });
  return (
    <div className="form__actions">
      <button type="button" className="button button--secondary" disabled={action.busy} onClick={() => void open()}>
        Open in the Continuous mixture calculator
      </button>
      <ActionError error={action.error} />
    </div>
  );
}

/** A fit's ln L as read; when none, why: no parameters explain the evidence, or a hit recorded before they were kept. */
const lnLText = (value: number | null, figures: ContinuousCandidateFigures): string =>
  value !== null ? logLikelihoodText(value) : figures.log10Lr === null ? 'None: no parameters explain the evidence' : 'Not stored with this hit (recorded before the log-likelihoods were kept)';

/** Both fits the hit's LR divides, as the calculator's Hypotheses table shows them: who each holds, its maximised ln L and how it was fitted. */
function HitHypotheses({ name, figures, contributors }: { name: string; figures: ContinuousCandidateFigures; contributors: number }) {
  const rows = [
    { hypothesis: 'Hp', holds: contributorsOf(contributors, 'hp').join(', '), lnL: figures.logLikelihoodHp, fit: figures.hpFit ? fitReportText(figures.hpFit) : 'No fit' },
    { hypothesis: 'Hd', holds: contributorsOf(contributors, 'hd').join(', '), lnL: figures.logLikelihoodHd, fit: 'Maximum likelihood without the candidate' },
  ];
  return (
    <table className="calculator__markers hit-table--stacked">
      <caption>Hypotheses over {name}</caption>
      <thead>
        <tr>
          <th scope="col">Hypothesis</th>
          <th scope="col">Contributors</th>
          <th scope="col">ln L</th>
          <th scope="col">Fit</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.hypothesis}>
            <th scope="row">{r.hypothesis}</th>
            <td data-label="Contributors">{r.holds}</td>
            <td data-label="ln L" className="calculator__number">
              {lnLText(r.lnL, figures)}
            </td>
            <td data-label="Fit">{r.fit}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PopulationContinuous({ population, figures }: { population: PopulationFigures; figures: ContinuousCandidateFigures }) {
  const name = population.populationName ?? 'Population';
  const contributors = figures.hp?.mx.length ?? figures.hd?.mx.length ?? 0;
  return (
    <section className="hit-continuous__population" aria-label={`Continuous model over ${name}`}>
      <h3>
        {name}
        <SyntheticLabel synthetic={population.synthetic} />
      </h3>
      <dl className="calculator__figures">
        <div>
          <dt>LR of the full fit with the candidate under Hp</dt>
          <dd>{figures.log10Lr === null ? 'None: no parameters explain the evidence with the candidate under Hp' : lrFromLog10Text(figures.log10Lr)}</dd>
        </div>
        <div>
          <dt>LR of the database scan at Hd’s fitted parameters</dt>
          <dd>{lrFromLog10Text(figures.scanLog10Lr)}</dd>
        </div>
      </dl>
      <p className="field__hint">
        The scan put the candidate in the place of Hd’s contributor {figures.position}; the full fit weighs the candidate again with its own parameters under Hp
        {figures.hpFit ? `: ${fitReportText(figures.hpFit)}` : ''}.
      </p>
      <HitHypotheses name={name} figures={figures} contributors={contributors} />
      <ContinuousParametersTable
        caption={`Parameters fitted by maximum likelihood over ${name}`}
        model={figures.model}
        hp={{ contributors: contributorsOf(contributors, 'hp'), parameters: figures.hp }}
        hd={{ contributors: contributorsOf(contributors, 'hd'), parameters: figures.hd }}
      />
    </section>
  );
}

interface HitContinuousProps {
  orgId: string;
  populations: readonly PopulationFigures[];
  prefill: CalculatorPrefill;
  findCalculator(): Promise<CalculatorPlace | null>;
}

/**
 * A continuous mixture hit (issue 31 "Quantitative database search"): per population, the exact LR of the full fit with
 * the candidate under Hp beside the scan's LR at Hd's fitted parameters that found it, both hypotheses' fitted
 * parameters, and the way into the Continuous mixture calculator with the stain and the candidate chosen.
 * Nothing for a hit of another model.
 */
export function HitContinuous({ orgId, populations, prefill, findCalculator }: HitContinuousProps) {
  const weighed = populations.flatMap((p) => (p.continuous ? [{ population: p, figures: p.continuous }] : []));
  if (weighed.length === 0) return null;
  const reported = weighed.find((w) => w.population.reported) ?? weighed[0]!;
  return (
    <section className="hit-continuous" aria-labelledby="hit-continuous">
      <h2 id="hit-continuous">Continuous model (peak heights)</h2>
      {weighed.map(({ population, figures }) => (
        <PopulationContinuous key={population.populationId ?? 'none'} population={population} figures={figures} />
      ))}
      <OpenInCalculator orgId={orgId} prefill={prefill} populationId={reported.population.populationId} findCalculator={findCalculator} />
    </section>
  );
}
