/** The lookup key of a marker name: lower case without spaces, underscores, dots or dashes (GENETICS.md). */
export function markerNameKey(name: string): string {
  // Only separators go: letters and digits stay, so DYS389I ≠ DYS389II and TH01 ≠ THO1 (the latter is an alias).
  // Dots cover R's make.names ("Penta.D"); \s also covers a stray BOM or no-break space.
  return name.replace(/[\s_.\p{Pd}]+/gu, '').toLowerCase();
}

/** A marker the resolver can return. */
export interface ResolvedMarker {
  id: string;
  name: string;
  kind: 'Autosomal' | 'YStr';
  /** A multi-copy Y marker (DYS385a/b, …), when the caller knows. */
  multiCopy?: boolean;
}

/** A marker with the spellings it is known by, as stored. */
export interface MarkerWithAliases extends ResolvedMarker {
  aliases: readonly string[];
}

/**
 * Builds a case-insensitive, alias-aware lookup from a marker name to its marker (GENETICS.md: an unknown name
 * is an error, never a guess). Throws when two markers share a key, or a name or alias has no key at all.
 */
export function buildMarkerResolver(markers: readonly MarkerWithAliases[]): (name: string) => ResolvedMarker | undefined {
  const byKey = new Map<string, { marker: ResolvedMarker; spelling: string }>();
  for (const { id, name, kind, aliases, multiCopy } of markers) {
    const marker: ResolvedMarker = multiCopy === undefined ? { id, name, kind } : { id, name, kind, multiCopy };
    for (const spelling of [name, ...aliases]) {
      const key = markerNameKey(spelling);
      if (key === '') throw new Error(`Marker "${name}" has an empty name or alias ("${spelling}").`);
      const taken = byKey.get(key);
      if (taken === undefined) byKey.set(key, { marker, spelling });
      else if (taken.marker !== marker) {
        throw new Error(
          `Marker names are ambiguous: "${spelling}" (marker "${name}") and "${taken.spelling}" ` +
            `(marker "${taken.marker.name}") both read as "${key}".`,
        );
      }
    }
  }
  return (name) => byKey.get(markerNameKey(name))?.marker;
}
