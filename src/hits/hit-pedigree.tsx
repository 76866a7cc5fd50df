import type { MarkerResult } from '../../core/schemas/analyses';
import type { HitView } from '../../core/schemas/hits';
import { PedigreeMarkerTable } from '../analyses/pedigree-result';

/** A hit weighed by a pedigree (issue 16: a family's hit): its markers carry both likelihoods and a verdict. */
export const isPedigreeHit = (view: HitView): boolean => view.analysis.kind === 'Pedigree' || view.markers.some((m) => m.pedigree);

/** The markers of each verdict but consistent, from the recomputed markers, else from the stored figures of the reported population. */
export function pedigreeVerdicts(view: HitView): { needingMutation: string[]; excluded: string[] } {
  const of = (verdict: string) => view.markers.filter((m) => m.pedigree?.verdict === verdict).map((m) => m.marker);
  if (view.markers.some((m) => m.pedigree)) return { needingMutation: of('needs a mutation'), excluded: of('excluded') };
  const stored = view.hit.figures?.populations.find((p) => p.reported) ?? view.hit.figures?.populations[0];
  return { needingMutation: stored?.markersNeedingMutation ?? [], excluded: [] };
}

/** The mutation models the markers were weighed with, each text once with the markers using it (most markers share one). */
export function mutationModels(markers: readonly MarkerResult[]): { text: string; markers: string[] }[] {
  const models = new Map<string, string[]>();
  for (const m of markers) if (m.pedigree) models.set(m.pedigree.mutation, [...(models.get(m.pedigree.mutation) ?? []), m.marker]);
  return [...models].map(([text, names]) => ({ text, markers: names }));
}

/** The mutation models and the markers needing a mutation (or none explains), above the per-marker table. */
function PedigreeSummary({ view }: { view: HitView }) {
  const models = mutationModels(view.markers);
  const { needingMutation, excluded } = pedigreeVerdicts(view);
  return (
    <>
      <section className="hit-pedigree__mutation" aria-label="Mutation models">
        <h3>Mutation models</h3>
        {models.length === 0 ? (
          <p>Not recomputed.</p>
        ) : models.length === 1 ? (
          <p>Every marker: {models[0]!.text}</p>
        ) : (
          <ul>
            {models.map((m) => (
              <li key={m.text}>
                {m.markers.join(', ')}: {m.text}
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className={excluded.length > 0 ? 'notice notice--negative' : needingMutation.length > 0 ? 'notice notice--warning' : 'notice'} role="status" aria-label="Markers needing a mutation">
        <p>Markers needing a mutation: {needingMutation.length > 0 ? needingMutation.join(', ') : 'none'}</p>
        {excluded.length > 0 ? (
          <p>
            <strong>Excluded markers (no mutation model explains them; LR 0): {excluded.join(', ')}</strong>
          </p>
        ) : null}
      </div>
    </>
  );
}

/** A pedigree hit's markers: per marker the genotypes, L(H1), L(H2), the LR and the verdict, after the mutation models. */
export function HitPedigreeMarkers({ view, roles }: { view: HitView; roles: readonly string[] }) {
  return (
    <>
      <PedigreeSummary view={view} />
      {view.markers.length > 0 ? <PedigreeMarkerTable caption={`Markers${view.population ? ` over ${view.population.name}` : ''}`} roles={roles} markers={view.markers} className="hit-table--stacked hit-markers" /> : null}
    </>
  );
}
