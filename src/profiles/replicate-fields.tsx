import type { MarkerRow } from './marker-rows';
import type { RunText } from './replicate-entry';

interface ReplicateFieldsProps {
  /** The markers with alleles typed (or heights typed at them), in the form's order. */
  rows: readonly MarkerRow[];
  runs: readonly RunText[];
  /** What is wrong with a run's marker (`${run} ${markerId}`) and with a run as a whole (by index). */
  messagesOf(run: number, markerId: string): string[];
  runMessages(run: number): string[];
  disabled: boolean;
  onChange(runs: RunText[]): void;
  onBlur(run: number, markerId: string): void;
}

/** The field id of a run's heights at a marker (the form focuses the first one in error). */
export const heightsFieldId = (run: number, markerId: string) => `run-${run}-heights-${markerId}`;

/**
 * Peak heights typed by hand (issue 31, forensic sample types): one group per replicate (run of the extract), each
 * marker's heights (RFU) and, if known, sizes (bp) in the order of its alleles above, as a GeneMapper table pairs
 * `Height k` with `Allele k`.
 */
export function ReplicateFields({ rows, runs, messagesOf, runMessages, disabled, onChange, onBlur }: ReplicateFieldsProps) {
  const change = (index: number, patch: (run: RunText) => RunText) => onChange(runs.map((r, i) => (i === index ? patch(r) : r)));
  return (
    <fieldset className="marker-entry__group" disabled={disabled}>
      <legend>Peak heights</legend>
      <p className="field__hint">
        Per replicate (run of the extract), each marker’s heights in RFU and, if known, sizes in bp, in the order of its alleles above, separated by commas. Write - for an allele
        this run did not show. Leave a marker empty when the run has no heights there.
      </p>
      {runs.map((run, r) => (
        <fieldset key={r} className="marker-entry__group" aria-label={`Replicate ${r + 1}`}>
          <legend>Replicate {r + 1}</legend>
          <div className="marker-entry__row">
            <label className="marker-entry__name" htmlFor={`run-${r}-name`}>
              Run name
            </label>
            <input id={`run-${r}-name`} className="input marker-entry__alleles" value={run.name} autoComplete="off" onChange={(e) => change(r, (x) => ({ ...x, name: e.target.value }))} />
          </div>
          {rows.map((row) => {
            const messages = messagesOf(r, row.markerId);
            const id = heightsFieldId(r, row.markerId);
            const invalid = messages.length > 0;
            return (
              <div key={row.markerId} className={`marker-entry__row${invalid ? ' field--invalid' : ''}`}>
                <label className="marker-entry__name" htmlFor={id}>
                  {row.name} heights (RFU)
                </label>
                <input
                  id={id}
                  className="input marker-entry__alleles"
                  value={run.heights[row.markerId] ?? ''}
                  autoComplete="off"
                  aria-invalid={invalid || undefined}
                  aria-describedby={invalid ? `${id}-error` : undefined}
                  onChange={(e) => change(r, (x) => ({ ...x, heights: { ...x.heights, [row.markerId]: e.target.value } }))}
                  onBlur={() => onBlur(r, row.markerId)}
                />
                <label className="marker-entry__name" htmlFor={`run-${r}-sizes-${row.markerId}`}>
                  {row.name} sizes (bp)
                </label>
                <input
                  id={`run-${r}-sizes-${row.markerId}`}
                  className="input marker-entry__alleles"
                  value={run.sizes[row.markerId] ?? ''}
                  autoComplete="off"
                  onChange={(e) => change(r, (x) => ({ ...x, sizes: { ...x.sizes, [row.markerId]: e.target.value } }))}
                  onBlur={() => onBlur(r, row.markerId)}
                />
                {invalid ? (
                  <p className="field__error marker-entry__error" id={`${id}-error`}>
                    {messages.join(' ')}
                  </p>
                ) : null}
              </div>
            );
          })}
          {runMessages(r).map((m) => (
            <p key={m} className="field__error" role="alert">
              {m}
            </p>
          ))}
          <button type="button" className="button button--secondary" onClick={() => onChange(runs.filter((_, i) => i !== r))}>
            Remove replicate {r + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" className="button button--secondary" onClick={() => onChange([...runs, { name: '', heights: {}, sizes: {} }])}>
        Add replicate
      </button>
    </fieldset>
  );
}
