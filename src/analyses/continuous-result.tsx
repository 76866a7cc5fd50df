import { useId, useState, type ReactNode } from 'react';
import type { ContinuousHypothesisResult, ContinuousLrResult, GammaParametersUsed } from '../../core/schemas/continuous';
import type { ContinuousFitReport, ContinuousModelSwitches } from '../../core/schemas/continuous-model';
import { ContinuousDeconvolution } from './continuous-deconvolution';
import { EpgChart } from './epg-chart';
import { Probability, Sci } from './mixture-result';
import { PpPlotChart } from './pp-plot-chart';
import { log10Text } from './result-format';

/** A natural log-likelihood as read: six decimals; a dash when the likelihood is 0. */
export const logLikelihoodText = (value: number | null): string => (value === null ? '–' : value.toFixed(6));
/** A fitted or fixed parameter: six significant digits. */
const parameterText = (value: number): string => String(Number(value.toPrecision(6)));

/** The LR as read: scientific notation, or 10^log10 when it overflows a double. */
function LrValue({ lr, log10 }: { lr: number | null; log10: number | null }) {
  if (lr !== null) return <Sci value={lr} />;
  if (log10 !== null && Number.isFinite(log10)) return <span className="calculator__number">10^{log10.toFixed(2)}</span>;
  return <span>–</span>;
}

/** How a hypothesis's fit searched: what a reader needs to repeat it and to trust it. */
function fitText(h: ContinuousHypothesisResult): string {
  return h.fit ? fitReportText(h.fit) : 'Fixed parameters';
}

/** A maximum-likelihood fit as read: how many starts agree, its seed, whether it converged and in how many steps. */
export function fitReportText(f: ContinuousFitReport): string {
  return `${f.agreeing} of ${f.starts} starts agree on the maximum (seed ${f.seed}); ${f.converged ? 'converged' : 'did not converge'} after ${f.iterations} iterations, ${f.evaluations} evaluations${f.note ? `; ${f.note}` : ''}`;
}

function Hypotheses({ result }: { result: ContinuousLrResult }) {
  return (
    <div className="calculator__scroll">
      <table className="calculator__markers">
        <caption>Hypotheses</caption>
        <thead>
          <tr>
            <th scope="col">Hypothesis</th>
            <th scope="col">Contributors</th>
            <th scope="col">ln L</th>
            <th scope="col">Parameters</th>
          </tr>
        </thead>
        <tbody>
          {result.hypotheses.map((h) => (
            <tr key={h.hypothesis}>
              <th scope="row">
                {h.hypothesis}: {h.description}
              </th>
              <td>{h.contributors.join(', ')}</td>
              <td className="calculator__number">{logLikelihoodText(h.logLikelihood)}</td>
              <td>
                {fitText(h)}
                {h.note ? (
                  <p className="continuous-result__note" role="note">
                    {h.note}
                  </p>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One hypothesis's contributors (in the order of its mixture proportions) and its parameters, fixed or fitted. */
export interface HypothesisParameters {
  contributors: readonly string[];
  parameters: GammaParametersUsed | null;
}

type ParameterRow = [string, (p: GammaParametersUsed) => number | undefined];

/** Every parameter used or fitted, Hp and Hd side by side (a mixture proportion per contributor in each hypothesis's order); the model's parts name the rows shown. */
export function ContinuousParametersTable({ caption, model, hp, hd }: { caption: string; model: ContinuousModelSwitches; hp: HypothesisParameters | undefined; hd: HypothesisParameters | undefined }) {
  const value = (h: HypothesisParameters | undefined, read: (p: GammaParametersUsed) => number | undefined): ReactNode => {
    const v = h?.parameters ? read(h.parameters) : undefined;
    return v === undefined ? '–' : <span className="calculator__number">{parameterText(v)}</span>;
  };
  const mixtures = Math.max(hp?.contributors.length ?? 0, hd?.contributors.length ?? 0);
  const rows: ParameterRow[] = [
    ...Array.from({ length: mixtures }, (_, i): ParameterRow => [`Mixture proportion ${i + 1} (${hp?.contributors[i] ?? '–'} / ${hd?.contributors[i] ?? '–'})`, (p) => p.mx[i]]),
    ['Peak height expectation μ (RFU)', (p) => p.mu],
    ['Coefficient of variation σ', (p) => p.sigma],
    ...(model.degradation ? [['Degradation slope β', (p) => p.beta] as ParameterRow] : []),
    ...(model.backwardStutter ? [['Backward stutter ξB', (p) => p.xiB] as ParameterRow] : []),
    ...(model.forwardStutter ? [['Forward stutter ξF', (p) => p.xiF] as ParameterRow] : []),
  ];
  return (
    <div className="calculator__scroll">
      <table className="calculator__markers">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Hp</th>
            <th scope="col">Hd</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, read]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{value(hp, read)}</td>
              <td>{value(hd, read)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ParametersUsed({ result }: { result: ContinuousLrResult }) {
  const [hp, hd] = result.hypotheses;
  return <ContinuousParametersTable caption={result.settings.mode === 'fit' ? 'Parameters fitted by maximum likelihood' : 'Parameters used (fixed)'} model={result.settings.model} hp={hp} hd={hd} />;
}

function Settings({ result }: { result: ContinuousLrResult }) {
  const s = result.settings;
  const parts = [s.model.degradation && 'degradation', s.model.backwardStutter && 'backward stutter', s.model.forwardStutter && 'forward stutter'].filter(Boolean).join(', ') || 'no degradation, no stutter';
  const rows: [string, ReactNode][] = [
    ['Contributors', s.contributors],
    ['Model', parts],
    ['Drop-in (c)', <Probability value={s.dropIn} />],
    ['Drop-in peak height rate (λ)', <Probability value={s.dropInLambda} />],
    ['θ', <Probability value={s.theta} />],
    ['Analytical threshold (RFU)', `${s.analyticalThreshold}${result.markers.some((m) => m.analyticalThreshold !== s.analyticalThreshold) ? '; per marker in the table below' : ''}`],
    ['Population', s.population.name],
    ['Minimum allele frequency', <Probability value={s.population.minimumAlleleFrequency} />],
    ['Frequencies normalized', s.normalizeFrequencies ? 'yes' : 'no'],
    ['Person of interest counted under Hd (θ)', s.personOfInterestTypedUnderHd ? 'yes' : 'no'],
    ['Precision', result.precision],
  ];
  return (
    <dl className="mixture-result__parameters">
      {rows.map(([term, v]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Markers({ result }: { result: ContinuousLrResult }) {
  return (
    <div className="calculator__scroll">
      <table className="calculator__markers">
        <caption>Per marker</caption>
        <thead>
          <tr>
            <th scope="col">Marker</th>
            <th scope="col">Alleles (frequency)</th>
            <th scope="col">Threshold (RFU)</th>
            <th scope="col">ln L Hp</th>
            <th scope="col">ln L Hd</th>
            <th scope="col">LR</th>
            <th scope="col">log10 LR</th>
          </tr>
        </thead>
        <tbody>
          {result.markers.map((m) => (
            <tr key={m.marker}>
              <th scope="row">{m.marker}</th>
              <td>
                {m.alleles.map((a, i) => (
                  <span key={a} className="continuous-result__genotype">
                    {i > 0 ? ', ' : ''}
                    {a} (<Probability value={m.frequencies[i]!} />)
                  </span>
                ))}
              </td>
              <td>{m.analyticalThreshold}</td>
              <td className="calculator__number">{logLikelihoodText(m.logLikelihoodHp)}</td>
              <td className="calculator__number">{logLikelihoodText(m.logLikelihoodHd)}</td>
              <td>
                <LrValue lr={m.lr} log10={m.log10Lr} />
              </td>
              <td className="calculator__number">{log10Text(m.log10Lr)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The validation of one hypothesis's fit: the PP-plot and the EPG chart, the hypothesis chosen by the reader. */
function Validation({ result }: { result: ContinuousLrResult }) {
  const id = useId();
  const validated = result.hypotheses.filter((h) => h.validation);
  const [chosen, setChosen] = useState(validated[0]?.hypothesis ?? 'Hp');
  const h = validated.find((v) => v.hypothesis === chosen) ?? validated[0];
  if (!h?.validation) return <p className="field__hint">No fit to validate: neither hypothesis explains the evidence.</p>;
  const thresholds = new Map(result.markers.map((m) => [m.marker, m.analyticalThreshold]));
  return (
    <>
      <fieldset className="continuous-result__choice">
        <legend className="field__label">Validate the fit under</legend>
        {validated.map((v) => (
          <label key={v.hypothesis} className="field--checkbox">
            <input type="radio" name={`${id}-validation`} checked={v.hypothesis === h.hypothesis} onChange={() => setChosen(v.hypothesis)} />
            <span>{v.hypothesis}</span>
          </label>
        ))}
      </fieldset>
      <div className="continuous-result__charts">
        <PpPlotChart peaks={h.validation.peaks} title={`PP-plot under ${h.hypothesis}`} />
        <EpgChart expected={h.validation.expected} thresholds={thresholds} fallbackThreshold={result.settings.analyticalThreshold} title={`Observed and expected heights under ${h.hypothesis}`} />
      </div>
    </>
  );
}

/**
 * A continuous calculation (issue 31, GENETICS.md "Continuous model"): the LR in total and per marker, both
 * hypotheses' log-likelihoods and how their parameters were found, every parameter and setting used, the
 * deconvolution, and the model's validation (PP-plot, observed against expected heights) a reader looks at before
 * trusting the LR. A fit that explains nothing shows its reason instead of an LR.
 */
export function ContinuousResult({ result }: { result: ContinuousLrResult }) {
  return (
    <section className="calculator__population continuous-result" aria-label="Continuous result">
      <h2>Result</h2>
      <div className="mixture-result__summary">
        <dl className="calculator__figures">
          <div>
            <dt>Likelihood ratio</dt>
            <dd>
              <LrValue lr={result.lr} log10={result.log10Lr} />
            </dd>
          </div>
          <div>
            <dt>log10 LR</dt>
            <dd>{log10Text(result.log10Lr)}</dd>
          </div>
        </dl>
      </div>
      {result.note ? (
        <p className="notice notice--warning" role="status">
          No likelihood ratio: {result.note}
        </p>
      ) : null}
      <Hypotheses result={result} />
      <h3>Parameters</h3>
      <ParametersUsed result={result} />
      <Settings result={result} />
      <Markers result={result} />
      {result.skippedMarkers.length > 0 ? (
        <p className="field__hint">
          Not weighed: {result.skippedMarkers.map((s) => `${s.marker} (${s.reason})`).join('; ')}
        </p>
      ) : null}
      <h3>Deconvolution</h3>
      {result.hypotheses.map((h) => (
        <ContinuousDeconvolution key={h.hypothesis} hypothesis={h} />
      ))}
      <h3>Model validation</h3>
      <Validation result={result} />
    </section>
  );
}
