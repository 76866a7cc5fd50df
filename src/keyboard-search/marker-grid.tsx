import type { ClipboardEvent } from 'react';
import { validateMarkerAlleles } from '../../core/alleles';
import { parseAlleleText } from '../profiles/allele-text';
import type { SearchChemistry } from './keyboard-search-api';
import { isWholeProfile } from './paste-profile';

export type MarkerTexts = Record<string, string>;
type SearchMarker = SearchChemistry['markers'][number];

/**
 * The allele rules' messages for one field (core/alleles, GENETICS.md). The typed profile may be a
 * mixture, as a forensic unknown may be, so a marker may carry up to 4 alleles (the server checks the same).
 */
export function markerErrors(marker: SearchMarker, text: string): string[] {
  const alleles = parseAlleleText(text);
  return alleles.length === 0 ? [] : validateMarkerAlleles(alleles, marker, { mixture: true });
}

interface MarkerGridProps {
  chemistry: SearchChemistry;
  texts: MarkerTexts;
  /** Markers whose field was left (or a search tried), so their rule messages show. */
  checked: ReadonlySet<string>;
  disabled: boolean;
  onChange(markerId: string, text: string): void;
  onLeave(markerId: string): void;
  /** A paste of several lines into any field: a whole profile. */
  onPasteProfile(text: string): void;
}

/** One field per marker of the chemistry in kit order, laid out like the marker entry form (src/profiles/marker-entry-form.tsx). */
export function MarkerGrid({ chemistry, texts, checked, disabled, onChange, onLeave, onPasteProfile }: MarkerGridProps) {
  const pasted = (e: ClipboardEvent<HTMLInputElement>) => {
    const text = e.clipboardData.getData('text');
    if (!isWholeProfile(text)) return;
    e.preventDefault();
    onPasteProfile(text);
  };
  return (
    <fieldset className="marker-entry__group" disabled={disabled}>
      <legend>{chemistry.name}</legend>
      {chemistry.markers.length === 0 ? <p>The chemistry {chemistry.name} lists no markers.</p> : null}
      {chemistry.markers.map((marker) => {
        const id = `search-marker-${marker.id}`;
        const messages = checked.has(marker.id) ? markerErrors(marker, texts[marker.id] ?? '') : [];
        return (
          <div key={marker.id} className={`marker-entry__row${messages.length > 0 ? ' field--invalid' : ''}`}>
            <label className="marker-entry__name" htmlFor={id}>
              {marker.name}
            </label>
            <input
              id={id}
              className="input marker-entry__alleles"
              value={texts[marker.id] ?? ''}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={messages.length > 0 || undefined}
              aria-describedby={messages.length > 0 ? `${id}-error` : undefined}
              onChange={(e) => onChange(marker.id, e.target.value)}
              onBlur={() => onLeave(marker.id)}
              onPaste={pasted}
            />
            {messages.length > 0 ? (
              <p className="field__error marker-entry__error" id={`${id}-error`}>
                {messages.join(' ')}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
