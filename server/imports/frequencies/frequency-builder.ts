import { designationProblem, markerProblem, normaliseAllele, rangeProblem } from './alleles';
import { checkFrequencies } from './validate';
import type { Issues, MarkerFrequencies, MarkerResolver, ResolvedMarker } from './types';

interface Entry {
  marker: ResolvedMarker;
  row: number | null;
  sampleSize: number | null;
  alleles: { allele: string; frequency: number }[];
  rows: (number | null)[];
  /** Alleles outside the plausible repeat range, held back until the marker is complete (see build). */
  implausible: { allele: string; row: number | null }[];
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
      this.entries.set(resolved.id, { marker: resolved, row, sampleSize: null, alleles: [], rows: [], implausible: [] });
    }
    return resolved;
  }

  /**
   * The designation `label` of a resolved marker as stored (core/alleles rules, X and Y at Amelogenin only), or
   * null once reported with its row, `skipped` ending the message; the marker's sum is then not checked.
   * Its size is checked as it is added.
   */
  allele(marker: ResolvedMarker, label: string, row: number | null, skipped = ''): string | null {
    const problem = designationProblem(label) ?? markerProblem(label, marker.name);
    if (problem === null) return normaliseAllele(label);
    this.issues.errors.push({ row, marker: marker.name, message: `"${label.trim()}" at ${marker.name} ${problem}${skipped}` });
    this.markUnreadable(marker);
    return null;
  }

  /** Adds one allele frequency of a resolved marker. */
  add(marker: ResolvedMarker, allele: string, frequency: number, row: number | null): void {
    const entry = this.entries.get(marker.id);
    if (!entry) throw new Error(`Marker ${marker.name} was added before it was resolved`);
    if (rangeProblem(allele) !== null) {
      entry.implausible.push({ allele, row });
      return;
    }
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
      if (!this.plausible(entry)) continue;
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

  // norSTR lists APOAI1, D11S554 and D17S906 by fragment length (176–437): a unit of its own, not a typing
  // mistake, and no profile can carry such an allele (core/alleles), so that marker alone is left out.
  /**
   * Reports the marker's alleles outside the plausible repeat range (0, 100) as errors, each at its row;
   * when none of its alleles is in range, the marker is skipped with one warning instead. False when it is not kept whole.
   */
  private plausible(entry: Entry): boolean {
    if (entry.implausible.length === 0) return true;
    const name = entry.marker.name;
    if (entry.alleles.length === 0) {
      const sizes = entry.implausible.map((a) => a.allele);
      this.issues.warnings.push({
        row: entry.row,
        marker: name,
        message:
          `Every allele of ${name} (${sizes[0]} … ${sizes[sizes.length - 1]}) is outside the repeat numbers 1–99 a profile can hold ` +
          '(fragment lengths?); the marker is skipped',
      });
      return false;
    }
    for (const { allele, row } of entry.implausible) {
      this.issues.errors.push({ row, marker: name, message: `"${allele}" at ${name} ${rangeProblem(allele)}` });
    }
    // Its sum without the refused alleles would only restate them.
    this.unreadable.add(entry.marker.id);
    return true;
  }
}
