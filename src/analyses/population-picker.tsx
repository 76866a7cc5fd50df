import { useId } from 'react';
import type { Population } from '../../core/schemas/populations';

interface PopulationPickerProps {
  populations: readonly Population[] | null;
  chosen: readonly string[];
  disabled: boolean;
  onToggle(populationId: string): void;
  /** One population only (the continuous model weighs over one at a time): radio buttons. */
  single?: boolean;
}

/** The populations to compute over, one or more (spec 2.5), or exactly one; only those of the analysis's kind are offered. */
export function PopulationPicker({ populations, chosen, disabled, onToggle, single = false }: PopulationPickerProps) {
  const name = useId();
  return (
    <fieldset className="calculator__populations" disabled={disabled}>
      <legend>{single ? 'Population' : 'Populations'}</legend>
      {populations === null ? (
        <p className="field__hint">Loading populations…</p>
      ) : populations.length === 0 ? (
        <p className="field__hint">No population of this kind is shared with this organization. An administrator adds one under Populations.</p>
      ) : (
        populations.map((p) => (
          <label key={p.id} className="field--checkbox">
            <input type={single ? 'radio' : 'checkbox'} name={single ? name : undefined} checked={chosen.includes(p.id)} onChange={() => onToggle(p.id)} />
            <span>{p.name}</span>
          </label>
        ))
      )}
    </fieldset>
  );
}
