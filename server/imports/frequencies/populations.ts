/** The population to read, or the file-level message telling the user to choose one. */
export type PopulationPick = { ok: true; population: string | null } | { ok: false; message: string };

// A file with several populations needs an explicit choice: guessing would mix populations.
/** Picks the population to read: the one asked for (case-insensitive), the only one, or none when the file names none. */
export function pickPopulation(available: readonly string[], requested: string | undefined): PopulationPick {
  const wanted = requested?.trim();
  if (available.length === 0) return { ok: true, population: null };
  if (wanted) {
    const found = available.find((p) => p.trim().toLowerCase() === wanted.toLowerCase());
    if (found !== undefined) return { ok: true, population: found };
    return { ok: false, message: `Population "${wanted}" is not in this file; it holds ${listPopulations(available)}` };
  }
  if (available.length === 1) return { ok: true, population: available[0] ?? null };
  return { ok: false, message: `This file holds ${available.length} populations (${available.join(', ')}); choose the one to import` };
}

function listPopulations(available: readonly string[]): string {
  return available.length === 1 ? `only "${available[0]}"` : `${available.map((p) => `"${p}"`).join(', ')}`;
}

/** The distinct values of a list, in first-seen order. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
