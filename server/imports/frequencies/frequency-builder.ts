import { checkFrequencies } from './validate';
import type { Issues, MarkerFrequencies, MarkerResolver, ResolvedMarker } from './types';

interface Entry {
  marker: ResolvedMarker;
  row: number | null;
  sampleSize: number | null;
  alleles: { allele: string; frequency: number }[];
  rows: (number | null)[];
}

/** Collects one population's frequencies with the row of each value, then validates them so every error names its row. */
export class FrequencyBuilder {
  private readonly entries = new Map<string, Entry>();
  private readonly reportedUnknown = new Set<string>();
  private readonly unreadable = new Set<string>();

  constructor(
    private readonly resolve: MarkerResolver,
    private readonly issues: Issues,
  ) {}

  /** Resolves a marker name found at a row; an unknown one is reported once as `Marker {name} is invalid`. */
  marker(name: string, row: number | null): ResolvedMarker | undefined {
    const resolved = this.resolve(name.trim());
    if (!resolved) {
      const key = name.trim().toLowerCase();
      if (!this.reportedUnknown.has(key)) {
        this.reportedUnknown.add(key);
        this.issues.errors.push({ row, marker: name.trim(), message: `Marker ${name.trim()} is invalid` });
      }
      return undefined;
    }
    if (!this.entries.has(resolved.id)) {
      this.entries.set(resolved.id, { marker: resolved, row, sampleSize: null, alleles: [], rows: [] });
    }
    return resolved;
  }

  /** Adds one allele frequency of a resolved marker. */
  add(marker: ResolvedMarker, allele: string, frequency: number, row: number | null): void {
    const entry = this.entries.get(marker.id);
    if (!entry) throw new Error(`Marker ${marker.name} was added before it was resolved`);
    entry.alleles.push({ allele, frequency });
    entry.rows.push(row);
  }

  /** Records that a cell of this marker could not be read (already reported), so its sum is not checked. */
  markUnreadable(marker: ResolvedMarker): void {
    this.unreadable.add(marker.id);
  }

  /** Sets N, the number of individuals, for a marker. */
  setSampleSize(marker: ResolvedMarker, sampleSize: number | null): void {
    const entry = this.entries.get(marker.id);
    if (entry) entry.sampleSize = sampleSize;
  }

  /** The markers in file order, after the GENETICS.md checks; Y-STR markers are refused (they need a haplotype table). */
  build(): MarkerFrequencies[] {
    const markers: MarkerFrequencies[] = [];
    const yStr: string[] = [];
    for (const entry of this.entries.values()) {
      if (entry.alleles.length === 0) {
        // Only an all-unreadable marker ends up here; its cells are already reported.
        if (!this.unreadable.has(entry.marker.id)) {
          this.issues.warnings.push({ row: entry.row, marker: entry.marker.name, message: `${entry.marker.name} has no allele frequencies; skipped` });
        }
        continue;
      }
      if (entry.marker.kind === 'YStr') yStr.push(entry.marker.name);
      markers.push({ markerId: entry.marker.id, marker: entry.marker.name, sampleSize: entry.sampleSize, alleles: entry.alleles });
    }
    this.issues.errors.push(
      ...checkFrequencies(markers, {
        alleleRow: (id, i) => this.entries.get(id)?.rows[i] ?? null,
        markerRow: (id) => this.entries.get(id)?.row ?? null,
        skipSum: this.unreadable,
      }),
    );
    if (yStr.length > 0) {
      this.issues.errors.push({
        row: null,
        message:
          `${yStr.join(', ')} ${yStr.length === 1 ? 'is a Y-STR marker' : 'are Y-STR markers'}: Y-STR statistics are imported as a ` +
          'haplotype table (one row per man, one column per marker), not as allele frequencies',
      });
    }
    return markers;
  }
}
