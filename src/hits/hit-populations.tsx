import { formatBracket, formatExpectedChanceHits, formatPValue } from '../../core/chance-display';
import { hitProbabilityText } from '../../core/hit-weighing';
import type { HitFigures, MatchKind, PopulationFigures } from '../../core/schemas/hit-figures';
import { SyntheticLabel } from '../ui/synthetic-label';

function PValue({ population }: { population: PopulationFigures }) {
  const chance = population.chance;
  if (!chance || chance.pValue === null) return <>–</>;
  return (
    <>
      {formatPValue(chance.pValue)}
      {chance.pValueBracket ? <small className="hit-populations__bracket">{formatBracket(chance.pValueBracket)}</small> : null}
    </>
  );
}

/** A population's text as lists show it; a mixture hit's stored text is read again, as hits recorded before it was named LR say CI. */
const probabilityOf = (p: PopulationFigures, matchKind: MatchKind): string =>
  matchKind === 'mixture' ? hitProbabilityText({ matchKind, combinedIndex: p.combinedIndex, markerCount: p.markerCount, nonExclusionMarkerCount: p.nonExclusionMarkerCount, figures: null }) : p.probability;

/**
 * Every population's result for the hit side by side (ARCHITECTURE.md "Hits", GENETICS.md "Expected
 * chance hits"): the likelihood ratio, its log10, the p-value among unrelated profiles and the expected
 * chance hits at the rule's threshold; the reported population (the smallest LR) is marked. The rule's
 * populations that weighed nothing (issue 30: none of the profiles' markers) are named below, with why.
 */
export function HitPopulations({ populations, matchKind, skipped = [] }: { populations: readonly PopulationFigures[]; matchKind: MatchKind; skipped?: HitFigures['skippedPopulations'] }) {
  if (populations.length === 0 && skipped.length === 0) return null;
  return (
    <section aria-labelledby="hit-populations">
      <h2 id="hit-populations">Populations</h2>
      <div className="calculator__scroll">
        <table className="hit-table hit-populations hit-table--stacked">
          <caption className="visually-hidden">Every population’s result side by side</caption>
          <thead>
            <tr>
              <th scope="col">Population</th>
              <th scope="col">Likelihood ratio</th>
              <th scope="col">log10 LR</th>
              <th scope="col">p-value</th>
              <th scope="col">Expected chance hits</th>
            </tr>
          </thead>
          <tbody>
            {populations.map((p) => (
              <tr key={p.populationId ?? 'none'} className={p.reported ? 'hit-populations__reported' : undefined}>
                <th scope="row">
                  {p.populationName ?? 'None (exclusion analysis)'}
                  {p.reported ? <span className="hit-populations__tag">reported</span> : null}
                  <SyntheticLabel synthetic={p.synthetic} />
                </th>
                <td data-label="Likelihood ratio">{probabilityOf(p, matchKind)}</td>
                <td data-label="log10 LR">{p.log10 === null ? '–' : p.log10.toFixed(2)}</td>
                <td data-label="p-value">
                  <PValue population={p} />
                </td>
                <td data-label="Expected chance hits">{p.chance ? formatExpectedChanceHits(p.chance.expectedChanceHits, p.chance.searchedProfiles) : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {skipped.length > 0 ? (
        <ul className="field__hint" aria-label="Populations not evaluated">
          {skipped.map((s) => (
            <li key={s.populationId}>
              {s.populationName}: {s.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
