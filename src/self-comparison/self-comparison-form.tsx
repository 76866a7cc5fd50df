import { useId, useState, type FormEvent } from 'react';
import { SELF_COMPARISON_MAX_DIFFERENCES } from '../../core/schemas/self-comparison';
import type { SelfComparisonRequest } from '../../machines/selfComparison.machine';
import { SelfComparisonActor } from './self-comparison-actor';

export interface ChemistryChoice {
  id: string;
  name: string;
  kind: string;
}

const DIFFERENCE_LABELS = ['0 — duplicates only', '1 — and near-duplicates with 1 difference', '2 — and near-duplicates with 1 or 2 differences', '3 — and near-duplicates with up to 3 differences'];

/** The chemistry and the two parameters; Start is offered when the machine allows a start (not while one runs). */
export function SelfComparisonForm({ chemistries }: { chemistries: readonly ChemistryChoice[] }) {
  const id = useId();
  const actor = SelfComparisonActor.useActorRef();
  const last = SelfComparisonActor.useSelector((s) => s.context.request ?? (s.context.job ? { chemistryId: s.context.job.chemistryId, maxDifferences: s.context.job.maxDifferences, minEqualMarkers: s.context.job.minEqualMarkers } : null));
  const open = SelfComparisonActor.useSelector((s) => s.hasTag('form'));
  const [chemistryId, setChemistryId] = useState(last?.chemistryId ?? (chemistries.length === 1 ? chemistries[0]!.id : ''));
  const [maxDifferences, setMaxDifferences] = useState(last?.maxDifferences ?? 2);
  const [minEqualMarkers, setMinEqualMarkers] = useState(String(last?.minEqualMarkers ?? 10));
  const minimum = Number(minEqualMarkers);
  const valid = chemistryId !== '' && Number.isInteger(minimum) && minimum >= 1 && minimum <= 99;
  const request: SelfComparisonRequest = { chemistryId, maxDifferences, minEqualMarkers: minimum };
  const canStart = SelfComparisonActor.useSelector((s) => s.can({ type: 'comparison.start', request: { chemistryId: 'x', maxDifferences: 0, minEqualMarkers: 1 } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid) actor.send({ type: 'comparison.start', request });
  };
  return (
    <form className="self-comparison__form" onSubmit={submit} aria-label="Comparison">
      <fieldset disabled={!open}>
        <label className="field">
          <span className="field__label">Chemistry</span>
          <select className="input" value={chemistryId} onChange={(e) => setChemistryId(e.target.value)} required>
            <option value="">Choose a chemistry</option>
            {chemistries.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.kind === 'YStr' ? 'Y-STR' : 'autosomal'})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Differences allowed</span>
          <select className="input" value={maxDifferences} onChange={(e) => setMaxDifferences(Number(e.target.value))}>
            {DIFFERENCE_LABELS.slice(0, SELF_COMPARISON_MAX_DIFFERENCES + 1).map((label, n) => (
              <option key={n} value={n}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-min`}>
            Equal markers, at least
          </label>
          <input id={`${id}-min`} className="input" type="number" min={1} max={99} value={minEqualMarkers} onChange={(e) => setMinEqualMarkers(e.target.value)} aria-describedby={`${id}-min-hint`} required />
          <span id={`${id}-min-hint`} className="field__hint">
            So two poor partial profiles are not called duplicates on a few markers.
          </span>
        </div>
        <button type="submit" className="button" disabled={!valid || !canStart}>
          Start comparison
        </button>
      </fieldset>
    </form>
  );
}
