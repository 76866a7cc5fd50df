import type { AnalysisResult, MarkerResult, PopulationResult } from '../../core/schemas/analyses';
import { MathText } from '../admin/analyses/math-text';
import { SyntheticLabel } from '../ui/synthetic-label';
import { ConstantsUsed } from './constants-used';
import { Log10Chart } from './log10-chart';
import { MarkerTableFrame } from './marker-table-frame';
import { ParentageConclusionNotice } from './parentage-conclusion';

import { MixturePopulation, Sci } from './mixture-result';
import { LrPerPopulation, MutationModels, PedigreeHypotheses, PedigreeMarkerLists, PedigreeMarkerTable } from './pedigree-result';
import { formatIndex, genotypeText } from './result-format';

export { formatIndex, genotypeText };

/** The value cell: the number, Exclusion / Non Exclusion for a 1/0 formula of an exclusion analysis, or why it was not evaluated. */
function MarkerValue({ marker, exclusion }: { marker: MarkerResult; exclusion: boolean }) {
  const decided = exclusion ? marker.isExclusion !== null : marker.value !== null;
  if (marker.notEvaluated !== null || !decided) {
    return <span className="calculator__not-evaluated">not evaluated{marker.notEvaluated ? `: ${marker.notEvaluated}` : ''}</span>;
  }
  if (exclusion) return <span>{marker.isExclusion ? 'Exclusion' : 'Non Exclusion'}</span>;
  return <span>{formatIndex(marker.value!)}</span>;
}

/** The per-marker table: the roles' genotypes, the allele expression, the formula used and its value; `inconsistent` markers (GENETICS.md "Parentage with inconsistencies") are marked. */
export function MarkerTable({ caption, roles, markers, exclusion, inconsistent = [], className }: { caption: string; roles: readonly string[]; markers: readonly MarkerResult[]; exclusion: boolean; inconsistent?: readonly string[]; className?: string }) {
  const result = exclusion ? 'Result' : 'Value';
  return (
    <MarkerTableFrame caption={caption} roles={roles} columns={['Pattern', 'Formula', result]} className={className}>
      {markers.map((m) => (
        <tr key={m.marker} className={inconsistent.includes(m.marker) ? 'calculator__inconsistent' : undefined}>
          <th scope="row">{m.marker}</th>
          {roles.map((role, i) => (
            <td key={role} data-label={role} className="calculator__genotype">
              {genotypeText(m.genotypes[i] ?? null)}
            </td>
          ))}
          <td data-label="Pattern">{m.pattern ? <code>{m.pattern}</code> : '–'}</td>
          <td data-label="Formula" className="calculator__formula">
            {m.latex ? <MathText latex={m.latex} /> : '–'}
          </td>
          <td data-label={result}>
            {/* One element: a stacked card lays the cell out as its label beside one value. */}
            <span>
              <MarkerValue marker={m} exclusion={exclusion} />
              {inconsistent.includes(m.marker) ? <span className="calculator__inconsistent-tag"> inconsistent</span> : null}
            </span>
          </td>
        </tr>
      ))}
    </MarkerTableFrame>
  );
}

function PopulationSection({ result, population }: { result: AnalysisResult; population: PopulationResult }) {
  // A mixture run (issue 17): hypotheses, drop-out estimates, parameters and per-marker likelihoods instead of formulae.
  if (population.mixture) return <MixturePopulation result={result} population={population} mixture={population.mixture} />;
  const roles = result.roles.map((r) => r.role);
  // A pedigree run (issue 16): likelihoods and verdicts per marker instead of patterns and formulae.
  const pedigree = result.pedigree !== null;
  return (
    <section className="calculator__population" aria-label={`Result over ${population.populationName}`}>
      <h2>
        {population.populationName}
        <SyntheticLabel synthetic={population.synthetic} />
      </h2>
      {population.populationSource ? <p className="field__hint">Source: {population.populationSource}</p> : null}
      <ParentageConclusionNotice conclusion={population.conclusion} />
      <dl className="calculator__figures">
        <div>
          <dt>{pedigree ? 'Likelihood ratio (H1 / H2)' : 'Combined index'}</dt>
          <dd>
            {population.combinedIndex === null ? 'not evaluated' : formatIndex(population.combinedIndex)}
            <SyntheticLabel synthetic={population.synthetic} />
          </dd>
        </div>
        <div>
          <dt>Probability</dt>
          <dd>
            {population.probability}
            <SyntheticLabel synthetic={population.synthetic} />
          </dd>
        </div>
        {population.haplotypeCount ? (
          <div>
            <dt>Haplotype count</dt>
            <dd>
              {population.haplotypeCount.matches} of {population.haplotypeCount.total}; 95% upper bound {formatIndex(population.haplotypeCount.upperBound)}; frequency used{' '}
              {formatIndex(population.haplotypeCount.frequency)}
            </dd>
          </div>
        ) : null}
      </dl>
      {pedigree ? <PedigreeMarkerLists population={population} /> : null}
      <Log10Chart markers={population.markers} title={`log10 LR per marker over ${population.populationName}`} />
      {pedigree ? (
        <PedigreeMarkerTable caption={`Markers over ${population.populationName}`} roles={roles} markers={population.markers} />
      ) : (
        <MarkerTable caption={`Markers over ${population.populationName}`} roles={roles} markers={population.markers} exclusion={false} inconsistent={population.conclusion?.inconsistentMarkers} />
      )}
    </section>
  );
}

/** What one run gave (spec 2.5, issue 5): per population the figures, chart and marker table; for an exclusion analysis the non-exclusion count; for a pedigree run (issue 16) the hypotheses and mutation models first; for a mixture run (issue 17) its hypotheses, parameters and drop-out estimates per population. */
export function AnalysisResultView({ result }: { result: AnalysisResult }) {
  const roles = result.roles.map((r) => r.role);
  return (
    <div className="calculator__result" aria-live="polite">
      <p className="field__hint">
        {result.roles.map((r) => `${r.role}: ${r.sampleName} (case ${r.caseNumber})`).join(' · ')} — computed {new Date(result.computedAt).toLocaleString()}
      </p>
      {result.exclusion ? (
        <section className="calculator__population" aria-label="Exclusion result">
          <dl className="calculator__figures">
            <div>
              <dt>Non-exclusion markers / markers compared</dt>
              <dd>{result.exclusion.probability}</dd>
            </div>
          </dl>
          <MarkerTable caption="Markers compared" roles={roles} markers={result.exclusion.markers} exclusion />
        </section>
      ) : null}
      {result.pedigree ? (
        <>
          <PedigreeHypotheses result={result} />
          <MutationModels result={result} />
          <LrPerPopulation populations={result.populations} />
        </>
      ) : null}
      {result.kind === 'Mixture' ? <LrPerPopulation populations={result.populations} lr={(lr) => <Sci value={lr} />} /> : null}
      {result.populations.map((population) => (
        <PopulationSection key={population.populationId} result={result} population={population} />
      ))}
      <ConstantsUsed constants={result.constants} />
    </div>
  );
}
