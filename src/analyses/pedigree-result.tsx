import type { ReactNode } from 'react';
import type { AnalysisResult, MarkerResult, PopulationResult } from '../../core/schemas/analyses';
import type { PedigreePersonInput } from '../../core/schemas/pedigrees';
import { MarkerTableFrame } from './marker-table-frame';
import { PedigreeDiagram } from './pedigree-diagram';
import { formatIndex, genotypeText } from './result-format';

type RunPedigree = NonNullable<AnalysisResult['pedigree']>;

/** The role's sample as the hypotheses name it: "Missing person (MP-REMAINS)". */
export function typedName(result: AnalysisResult, person: string): string {
  const role = result.roles.find((r) => r.role === person);
  return role ? `${person} (${role.sampleName})` : person;
}

/** Whether H2 is the one the analysis implies (GENETICS.md "Pedigrees"): the tested person a founder and nobody's parent; otherwise H2 was drawn out. */
export const h2SetsTargetApart = ({ h2, target }: RunPedigree): boolean =>
  h2.some((p) => p.id === target && !p.father && !p.mother) && !h2.some((p) => p.father === target || p.mother === target);

/** A pedigree's persons as a list: sex, parents, the role typed there and the tested person. */
function PersonList({ persons, result, label }: { persons: readonly PedigreePersonInput[]; result: AnalysisResult; label: string }) {
  const target = result.pedigree!.target;
  return (
    <ul className="pedigree-result__persons" aria-label={label}>
      {persons.map((p) => (
        <li key={p.id}>
          <strong>{typedName(result, p.id)}</strong>, {p.sex}
          {p.father || p.mother ? `; child of ${p.father ?? '?'} and ${p.mother ?? '?'}` : '; founder'}
          {p.id === target ? ' — tested person' : ''}
        </li>
      ))}
    </ul>
  );
}

/** H1 (the pedigree as drawn, with its diagram) and H2 (the tested person unrelated, or the drawn alternative). */
export function PedigreeHypotheses({ result }: { result: AnalysisResult }) {
  const pedigree = result.pedigree!;
  const typed = result.roles.map((r) => r.role);
  return (
    <section className="pedigree-result__hypotheses" aria-label="Hypotheses">
      <h2>Hypotheses</h2>
      <p>
        <strong>H1:</strong> the pedigree as drawn, {typedName(result, pedigree.target)} the tested person.
      </p>
      <PedigreeDiagram persons={pedigree.h1} typed={typed} target={pedigree.target} label="Pedigree of H1" />
      <PersonList persons={pedigree.h1} result={result} label="Persons of H1" />
      {h2SetsTargetApart(pedigree) ? (
        <p>
          <strong>H2:</strong> {typedName(result, pedigree.target)} is unrelated to the others; the rest of the pedigree as drawn.
        </p>
      ) : (
        <>
          <p>
            <strong>H2:</strong> as drawn below.
          </p>
          <PedigreeDiagram persons={pedigree.h2} typed={typed} target={pedigree.target} label="Pedigree of H2" />
          <PersonList persons={pedigree.h2} result={result} label="Persons of H2" />
        </>
      )}
    </section>
  );
}

/** The mutation models of the run: female and male for every marker, then each marker with its own (its text from the marker results). */
export function MutationModels({ result }: { result: AnalysisResult }) {
  const { mutation } = result;
  const markerText = (marker: string) =>
    result.populations.flatMap((p) => p.markers).find((m) => m.marker === marker && m.pedigree)?.pedigree?.mutation ?? 'its own models (not evaluated here)';
  return (
    <section className="pedigree-result__mutation" aria-label="Mutation models">
      <h2>Mutation models</h2>
      {mutation ? (
        <ul>
          <li>Every marker: {mutation.text}</li>
          {mutation.markers.map((m) => (
            <li key={m.marker}>
              {m.marker}: {markerText(m.marker)}
            </li>
          ))}
        </ul>
      ) : (
        <p>None: every transmission is without mutation.</p>
      )}
    </section>
  );
}

const VERDICT_CLASS: Record<string, string | undefined> = { 'needs a mutation': 'calculator__inconsistent', excluded: 'calculator__excluded' };

function PedigreeMarkerRow({ marker: m, roles }: { marker: MarkerResult; roles: readonly string[] }) {
  const likelihoods = m.pedigree;
  return (
    <tr className={likelihoods ? VERDICT_CLASS[likelihoods.verdict] : undefined}>
      <th scope="row">{m.marker}</th>
      {roles.map((role, i) => (
        <td key={role} data-label={role} className="calculator__genotype">
          {genotypeText(m.genotypes[i] ?? null)}
        </td>
      ))}
      {likelihoods && m.value !== null ? (
        <>
          <td data-label="L(H1)" className="calculator__number">
            {formatIndex(likelihoods.likelihoodH1)}
          </td>
          <td data-label="L(H2)" className="calculator__number">
            {formatIndex(likelihoods.likelihoodH2)}
          </td>
          <td data-label="LR" className="calculator__number">
            {formatIndex(m.value)}
          </td>
          <td data-label="Verdict">{likelihoods.verdict === 'consistent' ? likelihoods.verdict : <strong>{likelihoods.verdict}</strong>}</td>
        </>
      ) : (
        <td colSpan={4} data-label="LR" className="calculator__not-evaluated">
          not evaluated{m.notEvaluated ? `: ${m.notEvaluated}` : ''}
        </td>
      )}
    </tr>
  );
}

/** Per marker: the roles' genotypes, both likelihoods, the LR and the verdict; a marker needing a mutation or excluding stands out. */
export function PedigreeMarkerTable({ caption, roles, markers, className }: { caption: string; roles: readonly string[]; markers: readonly MarkerResult[]; className?: string }) {
  return (
    <MarkerTableFrame caption={caption} roles={roles} columns={['L(H1)', 'L(H2)', 'LR', 'Verdict']} className={className}>
      {markers.map((m) => (
        <PedigreeMarkerRow key={m.marker} marker={m} roles={roles} />
      ))}
    </MarkerTableFrame>
  );
}

/** Under the total LR: the markers consistent only through a mutation, and those no model explains. */
export function PedigreeMarkerLists({ population }: { population: PopulationResult }) {
  const needing = population.markersNeedingMutation ?? [];
  const excluded = population.excludedMarkers ?? [];
  if (needing.length === 0 && excluded.length === 0) return null;
  return (
    <div className={excluded.length > 0 ? 'notice notice--negative' : 'notice notice--warning'} role="status" aria-label="Markers needing a mutation">
      {needing.length > 0 ? <p>Markers needing a mutation: {needing.join(', ')}</p> : null}
      {excluded.length > 0 ? (
        <p>
          <strong>Excluded markers (no mutation model explains them; LR 0): {excluded.join(', ')}</strong>
        </p>
      ) : null}
    </div>
  );
}

/** The LR over each population side by side, when more than one was chosen; `lr` draws the figure (default: formatIndex). */
export function LrPerPopulation({ populations, lr = formatIndex }: { populations: readonly PopulationResult[]; lr?: (value: number) => ReactNode }) {
  if (populations.length < 2) return null;
  return (
    <table className="calculator__markers pedigree-result__lrs">
      <caption>LR per population</caption>
      <thead>
        <tr>
          <th scope="col">Population</th>
          <th scope="col">LR</th>
          <th scope="col">log10 LR</th>
        </tr>
      </thead>
      <tbody>
        {populations.map((p) => (
          <tr key={p.populationId}>
            <th scope="row">{p.populationName}</th>
            <td>{p.combinedIndex === null ? 'not evaluated' : lr(p.combinedIndex)}</td>
            <td>{p.log10 === null ? '–' : p.log10.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
