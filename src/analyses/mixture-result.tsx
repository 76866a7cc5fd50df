import type { ReactNode } from 'react';
import type { AnalysisResult, PopulationResult } from '../../core/schemas/analyses';
import type { DropoutEstimateResult, MixtureLrResult, MixtureMarkerLr, MixtureParametersUsed } from '../../core/schemas/mixtures';
import { Scientific } from '../admin/analyses/scientific';
import { SyntheticLabel } from '../ui/synthetic-label';
import { Log10Chart } from './log10-chart';
import { decimalText, genotypeText, log10Text } from './result-format';

/**
 * A mixture run's result over one population (issue 17, GENETICS.md "Mixtures"): the hypotheses, the LR beside both
 * drop-out estimates, every parameter used and per marker what was seen, who explains it and Pr(E|Hp), Pr(E|Hd), LR.
 */

/** A likelihood or LR in scientific notation (2.50 × 10⁻³). */
export const Sci = ({ value }: { value: number }) => (
  <span className="calculator__number">
    <Scientific value={value} digits={3} />
  </span>
);

/** A probability as a decimal (0.05), in scientific notation when very small. */
export const Probability = ({ value }: { value: number }) => {
  const text = decimalText(value);
  return text === null ? <Sci value={value} /> : <span className="calculator__number">{text}</span>;
};

/** How the run set drop-out, in the words of the analysis form. */
export function dropoutText({ dropout }: Pick<MixtureParametersUsed, 'dropout'>): string {
  if (dropout.mode === 'estimated') return dropout.estimate === 'conservative' ? 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' : 'Estimated — maximum likelihood per hypothesis';
  return dropout.values.length === 1 ? 'Fixed, one value for all contributors' : 'Fixed, one value per contributor';
}

/** The known contributors of a run: the result's roles so named (the engine's order). */
const knownContributorRoles = (result: AnalysisResult) => result.roles.filter((r) => r.role.startsWith('Known contributor'));

/**
 * The contributors in drop-out order: under Hp the person of interest, the known contributors, the unknowns; under Hd
 * an unknown takes the person of interest's place (and value).
 */
export function hypothesisContributors(contributors: number, known: number, hypothesis: 'Hp' | 'Hd'): string[] {
  return Array.from({ length: contributors }, (_, i) => {
    if (i === 0) return hypothesis === 'Hp' ? 'Person of interest' : 'Unknown 1';
    if (i <= known) return `Known contributor ${i}`;
    return `Unknown ${i - known + (hypothesis === 'Hp' ? 0 : 1)}`;
  });
}

function DropoutPerContributor({ values, labels }: { values: readonly number[]; labels: readonly string[] }) {
  return (
    <>
      {values.map((value, i) => (
        <span key={labels[i] ?? i} className="mixture-result__dropout">
          {labels[i]} <Probability value={value} />
        </span>
      ))}
    </>
  );
}

/** Every parameter the run used, as used: the drop-out per contributor under each hypothesis included. */
function ParametersUsed({ parameters, known, populationName }: { parameters: MixtureParametersUsed; known: number; populationName: string }) {
  const rows: [string, ReactNode][] = [
    ['Contributors', parameters.contributors],
    ['Drop-out', dropoutText(parameters)],
    ['Drop-out under Hp', <DropoutPerContributor values={parameters.dropoutHp} labels={hypothesisContributors(parameters.contributors, known, 'Hp')} />],
    ['Drop-out under Hd', <DropoutPerContributor values={parameters.dropoutHd} labels={hypothesisContributors(parameters.contributors, known, 'Hd')} />],
    ['How Hd’s drop-outs were set', parameters.dropoutHdRule],
    ['Drop-in (c)', <Probability value={parameters.dropIn} />],
    ['θ', <Probability value={parameters.theta} />],
    ['Person of interest counted under Hd (θ)', parameters.personOfInterestTypedUnderHd ? 'yes' : 'no'],
    ['Frequencies normalized', parameters.normalizeFrequencies ? 'yes' : 'no'],
    ['Population', parameters.population.name],
    ['Minimum allele frequency', <Probability value={parameters.population.minimumAlleleFrequency} />],
  ];
  return (
    <section aria-label={`Parameters used over ${populationName}`}>
      <h3>Parameters used</h3>
      <dl className="mixture-result__parameters">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Both hypotheses' drop-out estimates: maximum likelihood, the conservative 95th percentile and how many simulations reproduced the evidence. */
function DropoutEstimates({ estimates }: { estimates: readonly DropoutEstimateResult[] }) {
  if (estimates.length === 0) return null;
  return (
    <div className="mixture-result__estimates">
      <table className="calculator__markers mixture-result__small">
        <caption>Drop-out estimates</caption>
        <thead>
          <tr>
            {['Hypothesis', 'Maximum likelihood', 'Conservative (95th percentile)', 'Accepted / tried'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {estimates.map((e) => (
            <tr key={e.hypothesis}>
              <th scope="row">{e.hypothesis}</th>
              <td>{e.maximumLikelihood === null ? e.note : <Probability value={e.maximumLikelihood} />}</td>
              <td>{e.conservative !== null ? <Probability value={e.conservative} /> : e.tried === 0 ? 'not simulated' : 'none reproduced the evidence'}</td>
              <td className="calculator__number">
                {e.accepted.toLocaleString('en')} / {e.tried.toLocaleString('en')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {estimates.some((e) => e.tried > 0) ? (
        <p className="field__hint">
          Simulations accepted when they reproduce the {estimates.find((e) => e.tried > 0)!.observedAlleles} alleles seen; seed {estimates.find((e) => e.tried > 0)!.seed}.
        </p>
      ) : null}
    </div>
  );
}

/** Alleles per replicate: one list, or one line per replicate when there are several. */
function SeenAlleles({ replicates }: { replicates: readonly (readonly string[])[] }) {
  if (replicates.length === 1) return <>{genotypeText(replicates[0]!)}</>;
  return (
    <>
      {replicates.map((alleles, i) => (
        <div key={i}>
          R{i + 1}: {genotypeText(alleles)}
        </div>
      ))}
    </>
  );
}

function MixtureMarkerRow({ marker: m, withKnown }: { marker: MixtureMarkerLr; withKnown: boolean }) {
  return (
    <tr className={m.lr === 0 ? 'calculator__excluded' : undefined}>
      <th scope="row">{m.marker}</th>
      <td>
        <SeenAlleles replicates={m.replicates} />
      </td>
      <td>{genotypeText(m.personOfInterest)}</td>
      {withKnown ? (
        <td>
          {m.knownContributors.map((g, i) => (
            <div key={i}>
              K{i + 1}: {genotypeText(g)}
            </div>
          ))}
        </td>
      ) : null}
      <td>{genotypeText(m.explained)}</td>
      <td>{genotypeText(m.droppedOut)}</td>
      <td>{genotypeText(m.unexplained)}</td>
      <td>
        <Sci value={m.likelihoodHp} />
      </td>
      <td>
        <Sci value={m.likelihoodHd} />
      </td>
      <td>
        <Sci value={m.lr} />
      </td>
    </tr>
  );
}

/** Per marker: the alleles seen per replicate, the typed contributors, which alleles they explain, which dropped out, which no one carries; both likelihoods and the LR. */
export function MixtureMarkerTable({ caption, mixture }: { caption: string; mixture: MixtureLrResult }) {
  const withKnown = mixture.markers.some((m) => m.knownContributors.length > 0);
  const columns = ['Marker', 'Alleles seen', 'Person of interest', ...(withKnown ? ['Known contributors'] : []), 'Explained', 'Dropped out', 'Unexplained (drop-in or unknown)', 'Pr(E|Hp)', 'Pr(E|Hd)', 'LR'];
  return (
    <div className="calculator__scroll">
      <table className="calculator__markers">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {mixture.markers.map((m) => (
            <MixtureMarkerRow key={m.marker} marker={m} withKnown={withKnown} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The evidence's markers the run did not weigh, each with its reason. */
function SkippedMarkers({ skipped, populationName }: { skipped: MixtureLrResult['skippedMarkers']; populationName: string }) {
  if (skipped.length === 0) return null;
  return (
    <section aria-label={`Markers not weighed over ${populationName}`}>
      <h3>Markers not weighed</h3>
      <ul>
        {skipped.map((m) => (
          <li key={m.marker}>
            {m.marker}: {m.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One population of a mixture run: hypotheses, LR and log10 LR beside the drop-out estimates, the parameters used, the chart, the marker table and the markers not weighed. */
export function MixturePopulation({ result, population, mixture }: { result: AnalysisResult; population: PopulationResult; mixture: MixtureLrResult }) {
  const { parameters } = mixture;
  const name = population.populationName;
  return (
    <section className="calculator__population" aria-label={`Result over ${name}`}>
      <h2>
        {name}
        <SyntheticLabel synthetic={population.synthetic} />
      </h2>
      {population.populationSource ? <p className="field__hint">Source: {population.populationSource}</p> : null}
      <div className="mixture-result__hypotheses" aria-label={`Hypotheses over ${name}`} role="group">
        <p>
          <strong>Hp:</strong> {parameters.hp}
        </p>
        <p>
          <strong>Hd:</strong> {parameters.hd}
        </p>
      </div>
      <div className="mixture-result__summary">
        <dl className="calculator__figures">
          <div>
            <dt>Likelihood ratio (Hp / Hd)</dt>
            <dd>
              <Sci value={mixture.lr} />
              <SyntheticLabel synthetic={population.synthetic} />
            </dd>
          </div>
          <div>
            <dt>log10 LR</dt>
            <dd>{log10Text(mixture.log10)}</dd>
          </div>
        </dl>
        <DropoutEstimates estimates={mixture.estimates} />
      </div>
      <ParametersUsed parameters={parameters} known={knownContributorRoles(result).length} populationName={name} />
      <Log10Chart markers={population.markers} title={`log10 LR per marker over ${name}`} />
      <MixtureMarkerTable caption={`Markers over ${name}`} mixture={mixture} />
      <SkippedMarkers skipped={mixture.skippedMarkers} populationName={name} />
    </section>
  );
}
