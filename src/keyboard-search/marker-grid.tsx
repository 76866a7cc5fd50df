import type { ClipboardEvent } from 'react';
import { validateMarkerAlleles } from '../../core/alleles';
import { AlleleField } from '../profiles/allele-field';
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
          <AlleleField
            key={marker.id}
            id={id}
            marker={marker.name}
            value={texts[marker.id] ?? ''}
            messages={messages}
            onChange={(value) => onChange(marker.id, value)}
            onBlur={() => onLeave(marker.id)}
            onPaste={pasted}
          />
        );
      })}
    </fieldset>
  );
}
