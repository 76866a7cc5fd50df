import type { KeyboardSearchAnalysis } from '../../core/schemas/keyboard-search';

interface AnalysisPickerProps {
  analyses: readonly KeyboardSearchAnalysis[] | null;
  chosen: readonly string[];
  disabled: boolean;
  onToggle(analysisId: string): void;
}

/**
 * The analyses a search runs besides the stringency (issue 29): the active pairwise analyses of the chemistry's kind.
 * Same-source ones come ticked; kinship and exclusion analyses scan for relatives only when the user ticks them.
 */
export function AnalysisPicker({ analyses, chosen, disabled, onToggle }: AnalysisPickerProps) {
  return (
    <fieldset className="calculator__populations" disabled={disabled}>
      <legend>Analyses</legend>
      {analyses === null ? (
        <p className="field__hint">Loading analyses…</p>
      ) : analyses.length === 0 ? (
        <p className="field__hint">No active analysis of this kind: the search uses the stringency alone.</p>
      ) : (
        <>
          {analyses.map((a) => (
            <label key={a.id} className="field--checkbox" title={a.label}>
              <input type="checkbox" checked={chosen.includes(a.id)} onChange={() => onToggle(a.id)} />
              <span>{a.name}</span>
            </label>
          ))}
          <p className="field__hint">Kinship analyses search for relatives of the typed profile: tick them only for a familial search.</p>
        </>
      )}
    </fieldset>
  );
}
