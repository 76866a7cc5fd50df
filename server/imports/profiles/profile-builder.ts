import { isAmelogenin, normaliseMarkerAlleles, validateMarkerAlleles } from '../../../core/alleles';
import { MIXTURE_SAMPLE_TYPES, type ProfileKind, type SampleType } from '../../../core/schemas/profiles';
import { isBlank } from '../frequencies/numbers';
import { isControlSample } from './controls';
import type { Issues, MarkerResolver, ParsedProfile, ResolvedMarker } from './types';

/** The longest sample name a profile takes (ProfileDraft.profileId). */
const MAX_NAME = 100;

interface MarkerDraft {
  marker: ResolvedMarker;
  /** The spelling the file used, so split copy columns (DYS385a, DYS385b) are told from a repeated marker. */
  spelling: string;
  alleles: string[];
  line: number | null;
}

/** One sample as read so far. */
export interface SampleDraft {
  name: string;
  line: number | null;
  sampleType: SampleType | null;
  kit: string | null;
  markers: Map<string, MarkerDraft>;
  errors: string[];
}

/** How a sample's rows may name a marker again: a wide row's copy columns merge; a long table's repeated row is a second run. */
export type RepeatRule = 'merge' | 'refuse';

/** Splits cells into designations: one per cell, or a comma list (GeneMapper samples table `12, 13, , `; Y-STR `12,13`). */
function designations(cells: readonly string[]): string[] {
  return cells.flatMap((cell) => cell.split(',')).map((a) => a.trim()).filter((a) => !isBlank(a));
}

/**
 * Collects samples and their markers from any format, then applies the rules every import shares:
 * unknown markers (`Marker {name} is invalid`, once per name), ladders and controls skipped, empty
 * markers skipped, duplicate sample names, a sample with nothing left, and the allele rules of core/alleles.
 */
export class ProfileBuilder {
  private readonly samples: SampleDraft[] = [];
  private readonly byRun = new Map<string, SampleDraft>();
  private readonly unknown = new Set<string>();
  private readonly controls = new Set<string>();

  constructor(
    private readonly resolve: MarkerResolver,
    private readonly issues: Issues,
  ) {}

  /** Starts a new sample (a wide row, a CMF specimen). */
  newSample(name: string, line: number | null, meta: { sampleType?: SampleType | null; kit?: string | null } = {}): SampleDraft {
    const sample: SampleDraft = { name, line, sampleType: meta.sampleType ?? null, kit: meta.kit ?? null, markers: new Map(), errors: [] };
    this.samples.push(sample);
    return sample;
  }

  /** The sample a long table's row belongs to: rows of one name (and one run, when the file names runs) are one sample. */
  sampleOf(name: string, run: string | null, line: number): SampleDraft {
    const key = JSON.stringify([name, run]);
    const known = this.byRun.get(key);
    if (known) return known;
    const sample = this.newSample(name, line);
    this.byRun.set(key, sample);
    return sample;
  }

  /** Skips a ladder or control sample of a run with one warning per name; true when the name is one. */
  skipControl(name: string, line: number): boolean {
    if (!isControlSample(name)) return false;
    if (!this.controls.has(name)) {
      this.controls.add(name);
      this.issues.warnings.push({ row: line, sample: name, message: `${name} is an allelic ladder or a control, not a sample; not imported` });
    }
    return true;
  }

  /** How many ladder and control samples were skipped. */
  get skippedControls(): number {
    return this.controls.size;
  }

  /** Adds one marker's cells (as the file spells the marker) to a sample. */
  addMarker(sample: SampleDraft, spelling: string, cells: readonly string[], line: number | null, repeat: RepeatRule): void {
    const alleles = designations(cells);
    const marker = this.resolveMarker(spelling, line);
    if (!marker) {
      const message = `Marker ${spelling} is invalid`;
      // The profile is blocked only when alleles would be lost with the marker.
      if (alleles.length > 0 && !sample.errors.includes(message)) sample.errors.push(message);
      return;
    }
    const known = sample.markers.get(marker.id);
    if (!known) {
      sample.markers.set(marker.id, { marker, spelling, alleles, line });
      return;
    }
    const copyColumn = marker.multiCopy === true && known.spelling !== spelling;
    if (repeat === 'refuse' && !copyColumn) {
      const rows = [known.line, line].filter((l) => l !== null).join(' and ');
      this.sampleError(sample, `${marker.name} is given twice for ${sample.name}${rows ? ` (rows ${rows})` : ''}; is the name used for two runs?`, line, marker.name);
      return;
    }
    known.alleles.push(...alleles);
  }

  /** A problem of one sample: listed with the file's errors and on the profile, which then cannot be added. */
  sampleError(sample: SampleDraft, message: string, row: number | null, marker?: string): void {
    this.issues.errors.push(marker === undefined ? { row, sample: sample.name, message } : { row, sample: sample.name, marker, message });
    sample.errors.push(message);
  }

  /** Applies the shared rules and returns the profiles in file order. */
  build(): ParsedProfile[] {
    this.reportDuplicateNames();
    return this.samples.map((sample) => this.buildProfile(sample));
  }

  private resolveMarker(spelling: string, line: number | null): ResolvedMarker | undefined {
    const marker = this.resolve(spelling);
    if (!marker && !this.unknown.has(spelling)) {
      this.unknown.add(spelling);
      // Spec 5: exactly this message, once per unknown name however many rows use it.
      this.issues.errors.push({ row: line, marker: spelling, message: `Marker ${spelling} is invalid` });
    }
    return marker;
  }

  private reportDuplicateNames(): void {
    const byName = new Map<string, SampleDraft[]>();
    for (const s of this.samples) {
      const same = byName.get(s.name);
      if (same) same.push(s);
      else byName.set(s.name, [s]);
    }
    for (const [name, same] of byName) {
      if (same.length < 2) continue;
      const rows = same.map((s) => s.line).filter((l) => l !== null);
      const message = `The sample name ${name} is used ${same.length} times in the file${rows.length ? ` (rows ${rows.join(', ')})` : ''}; each profile needs its own name`;
      this.issues.errors.push({ row: same[0]!.line, sample: name, message });
      for (const s of same) s.errors.push(message);
    }
  }

  private buildProfile(sample: SampleDraft): ParsedProfile {
    const typed = [...sample.markers.values()].filter((m) => m.alleles.length > 0);
    const empty = [...sample.markers.values()].filter((m) => m.alleles.length === 0).map((m) => m.marker.name);
    if (empty.length > 0) {
      this.issues.warnings.push({ row: sample.line, sample: sample.name, message: `${sample.name}: no alleles at ${empty.join(', ')}; skipped` });
    }
    if (sample.name.length > MAX_NAME) this.sampleError(sample, `The sample name ${sample.name.slice(0, 40)}… is longer than ${MAX_NAME} characters`, sample.line);
    if (typed.length === 0) this.sampleError(sample, `${sample.name} has no alleles at any known marker`, sample.line);
    // The sample type is chosen when adding if the file names none, so a mixture cannot be ruled out yet.
    const mixture = sample.sampleType === null || MIXTURE_SAMPLE_TYPES.has(sample.sampleType);
    for (const m of typed) {
      const rules = { name: m.marker.name, kind: m.marker.kind, multiCopy: m.marker.multiCopy ?? false };
      for (const message of validateMarkerAlleles(m.alleles, rules, { mixture })) this.sampleError(sample, message, m.line, m.marker.name);
    }
    return {
      profileId: sample.name,
      kind: profileKind(typed.map((m) => m.marker)),
      kit: sample.kit,
      sampleType: sample.sampleType,
      markerValues: typed.map((m) => ({ markerId: m.marker.id, marker: m.marker.name, alleles: normaliseMarkerAlleles(m.alleles) })),
      errors: sample.errors,
      line: sample.line,
    };
  }
}

/**
 * A Y-STR profile is one whose markers are all Y-STR, Amelogenin aside (Y-STR kits may carry it);
 * any other autosomal marker makes it autosomal, keeping the Y markers its kit amplifies (GlobalFiler: DYS391).
 */
function profileKind(markers: readonly ResolvedMarker[]): ProfileKind {
  const telling = markers.filter((m) => !isAmelogenin(m.name));
  return telling.length > 0 && telling.every((m) => m.kind === 'YStr') ? 'YStr' : 'Autosomal';
}
