import { cmfExportObstacles } from '../../../core/cmf-limits';
import { isAmelogenin, normaliseMarkerAlleles, parseAllele, validateMarkerAlleles } from '../../../core/alleles';
import { MIXTURE_SAMPLE_TYPES, type ImportControl, type ProfileKind, type SampleType } from '../../../core/schemas/profiles';
import { isBlank } from '../frequencies/numbers';
import { controlReason, type ControlReason } from './controls';
import { readPeaks, type PeakCells } from '../../../core/peak-cells';
import type { ImportedReplicate, PeakInput } from '../../../core/schemas/replicates';
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
  /** Runs with peak heights (issue 31): run name → marker id → peaks as the file gave them, in file order. */
  runs: Map<string, Map<string, PeakInput[]>>;
  errors: string[];
}

/** How a sample's rows may name a marker again: a wide row's copy columns merge; a long table's repeated row is a second run. */
export type RepeatRule = 'merge' | 'refuse';

/** Amelogenin coded as numbers (NIST MIX05, LabRetriever): 1 is X, 2 is Y (GENETICS.md). */
const AMELOGENIN_CODES: Readonly<Record<string, string>> = { '1': 'X', '2': 'Y' };

/** Amelogenin text that is a placeholder for "not typed" (INC, ND, ?): no digit, and not made of X and Y. */
function isAmelogeninPlaceholder(allele: string): boolean {
  return !/\d/.test(allele) && !/^[xy]+$/i.test(allele);
}

/** The off-ladder marking (any case), which Amelogenin reads as not typed. */
function isOffLadder(text: string): boolean {
  return text.toUpperCase() === 'OL';
}

/** The most sample names a file-wide warning lists before saying how many more there are. */
const LISTED_SAMPLES = 20;

/** Sample names for a file-wide warning: all of them, or the first LISTED_SAMPLES and how many more. */
function sampleList(names: readonly string[]): string {
  const listed = names.slice(0, LISTED_SAMPLES).join(', ');
  return names.length > LISTED_SAMPLES ? `${listed} and ${names.length - LISTED_SAMPLES} more` : listed;
}

/** Splits cells into designations: one per cell, or a comma list (GeneMapper samples table `12, 13, , `; Y-STR `12,13`). */
function designations(cells: readonly string[]): string[] {
  const found: string[] = [];
  for (const cell of cells) {
    for (const part of cell.includes(',') ? cell.split(',') : [cell]) {
      const allele = part.trim();
      if (!isBlank(allele)) found.push(allele);
    }
  }
  return found;
}

/**
 * Collects samples and their markers from any format, then applies the rules every import shares:
 * unknown markers (`Marker {name} is invalid`, once per name), ladders and controls skipped (listed apart),
 * Amelogenin coded 1/2 read as X/Y and placeholder Amelogenin skipped, empty markers skipped, duplicate
 * sample names, a sample with nothing left, and the allele rules of core/alleles.
 */
export class ProfileBuilder {
  private readonly samples: SampleDraft[] = [];
  private readonly byRun = new Map<string, SampleDraft>();
  private readonly unknown = new Set<string>();
  private readonly controlList: ImportControl[] = [];
  private readonly controlNames = new Set<string>();
  /** Samples whose Amelogenin was written 1/2, and those whose Amelogenin held only placeholders (with them). */
  private readonly amelogeninCoded: string[] = [];
  private readonly amelogeninPlaceholders: { sample: string; values: string[] }[] = [];
  /** Samples CMF 3.2 can never hold as they stand, with why (said at import, not first at download). */
  private readonly notCmf: string[] = [];
  /** Samples whose Amelogenin carried an off-ladder peak (OL) beside X or Y. */
  private readonly amelogeninOffLadder: string[] = [];
  private lastSample: { name: string; run: string | null; sample: SampleDraft } | null = null;
  private lastControl: { name: string; reason: ControlReason | null } | null = null;

  constructor(
    private readonly resolve: MarkerResolver,
    private readonly issues: Issues,
  ) {}

  /** Starts a new sample (a wide row, a CMF specimen). */
  newSample(name: string, line: number | null, meta: { sampleType?: SampleType | null; kit?: string | null } = {}): SampleDraft {
    const sample: SampleDraft = { name, line, sampleType: meta.sampleType ?? null, kit: meta.kit ?? null, markers: new Map(), runs: new Map(), errors: [] };
    this.samples.push(sample);
    return sample;
  }

  /** The sample a long table's row belongs to: rows of one name (and one run, when the file names runs) are one sample. */
  sampleOf(name: string, run: string | null, line: number): SampleDraft {
    // A long table's rows of one sample come one after the other: the last row's sample, without building its key.
    const last = this.lastSample;
    if (last && last.name === name && last.run === run) return last.sample;
    const key = JSON.stringify([name, run]);
    let sample = this.byRun.get(key);
    if (!sample) {
      sample = this.newSample(name, line);
      this.byRun.set(key, sample);
    }
    this.lastSample = { name, run, sample };
    return sample;
  }

  /** Skips a ladder or control sample of a run, listing each name once (controls); true when the name is one. */
  skipControl(name: string, line: number): boolean {
    // Asked for each of a sample's rows in a long table: the last name's verdict is kept.
    if (this.lastControl?.name !== name) this.lastControl = { name, reason: controlReason(name) };
    const reason = this.lastControl.reason;
    if (reason === null) return false;
    if (!this.controlNames.has(name)) {
      this.controlNames.add(name);
      this.controlList.push({ sampleName: name, line, reason });
    }
    return true;
  }

  /** The ladders and controls skipped, each name once, in file order. */
  get controls(): ImportControl[] {
    return this.controlList;
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

  /**
   * Adds one marker of one run with its heights and sizes (issue 31): the alleles join the sample's marker values (the
   * union of its runs, what searches read), the peaks the run's replicate. A marker twice in one run is refused as in
   * addMarker; the same marker in another run of the sample is that run's replicate.
   */
  addRunMarker(sample: SampleDraft, run: string, spelling: string, cells: PeakCells, line: number): void {
    const { peaks, problems } = readPeaks(cells);
    const marker = this.resolveMarker(spelling, line);
    if (!marker) {
      const message = `Marker ${spelling} is invalid`;
      if (peaks.length > 0 && !sample.errors.includes(message)) sample.errors.push(message);
      return;
    }
    for (const problem of problems) this.sampleError(sample, `Row ${line}: ${marker.name} of ${sample.name}: ${problem}`, line, marker.name);
    let replicate = sample.runs.get(run);
    if (!replicate) sample.runs.set(run, (replicate = new Map()));
    const known = sample.markers.get(marker.id);
    if (replicate.has(marker.id) && marker.multiCopy !== true) {
      const rows = [known?.line, line].filter((l) => l !== null && l !== undefined).join(' and ');
      this.sampleError(sample, `${marker.name} is given twice for ${sample.name}${run !== sample.name ? ` in run ${run}` : ''} (rows ${rows}); is the name used for two runs?`, line, marker.name);
      return;
    }
    replicate.set(marker.id, [...(replicate.get(marker.id) ?? []), ...peaks]);
    const alleles = peaks.map((p) => p.allele);
    if (known) known.alleles.push(...alleles);
    else sample.markers.set(marker.id, { marker, spelling, alleles, line });
  }

  /** A problem of one sample: listed with the file's errors and on the profile, which then cannot be added. */
  sampleError(sample: SampleDraft, message: string, row: number | null, marker?: string): void {
    this.issues.errors.push(marker === undefined ? { row, sample: sample.name, message } : { row, sample: sample.name, marker, message });
    sample.errors.push(message);
  }

  /** Applies the shared rules and returns the profiles in file order. */
  build(): ParsedProfile[] {
    this.reportControls();
    this.reportDuplicateNames();
    const profiles = this.samples.map((sample) => this.buildProfile(sample));
    this.reportAmelogenin();
    this.reportNotCmf();
    return profiles;
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

  /** One warning for the whole file; `controls` lists them one by one for the screen. */
  private reportControls(): void {
    if (this.controlList.length === 0) return;
    const names = this.controlList.map((c) => `${c.sampleName} (${c.reason})`);
    this.issues.warnings.push({ row: null, message: `Allelic ladders and controls are run checks, not samples; not imported: ${sampleList(names)}` });
  }

  /**
   * Amelogenin written 1/2 (every value 1 or 2) is read as X/Y; Amelogenin holding only placeholders (INC, ND, ?)
   * is not typed, so the marker is dropped. Import only: a `1` typed by hand at Amelogenin stays an error.
   */
  private readAmelogenin(sample: SampleDraft): void {
    for (const [id, m] of sample.markers) {
      if (!isAmelogenin(m.marker.name) || m.alleles.length === 0) continue;
      const texts = m.alleles.map((a) => parseAllele(a).text);
      if (texts.every((t) => t in AMELOGENIN_CODES)) {
        m.alleles = texts.map((t) => AMELOGENIN_CODES[t]!);
        if (!this.amelogeninCoded.includes(sample.name)) this.amelogeninCoded.push(sample.name);
      } else if (m.alleles.every(isAmelogeninPlaceholder)) {
        this.amelogeninPlaceholders.push({ sample: sample.name, values: m.alleles });
        sample.markers.delete(id);
      } else if (texts.some(isOffLadder)) {
        // An off-ladder peak at Amelogenin is no sex call: it is not typed, the X or Y beside it still is.
        m.alleles = m.alleles.filter((a) => !isOffLadder(parseAllele(a).text));
        this.amelogeninOffLadder.push(sample.name);
      }
    }
  }

  /** A sample's runs as replicates: the markers it keeps, in its order, each allele written as its marker value is. */
  private replicatesOf(sample: SampleDraft, typed: readonly MarkerDraft[]): ImportedReplicate[] {
    const coded = this.amelogeninCoded.includes(sample.name);
    const text = (m: MarkerDraft, allele: string) => {
      const t = parseAllele(allele).text;
      return coded && isAmelogenin(m.marker.name) ? (AMELOGENIN_CODES[t] ?? t) : t;
    };
    return [...sample.runs].map(([name, markers]) => ({
      name,
      markers: typed.flatMap((m) => {
        const peaks = markers.get(m.marker.id);
        return peaks ? [{ markerId: m.marker.id, marker: m.marker.name, peaks: peaks.map((p) => ({ ...p, allele: text(m, p.allele) })) }] : [];
      }),
    }));
  }

  /** One warning per file for each Amelogenin reading, naming the samples. */
  private reportAmelogenin(): void {
    if (this.amelogeninCoded.length > 0) {
      this.issues.warnings.push({ row: null, message: `Amelogenin written as 1/2 read as X/Y (1 = X, 2 = Y) for samples ${sampleList(this.amelogeninCoded)}` });
    }
    if (this.amelogeninPlaceholders.length > 0) {
      const values = [...new Set(this.amelogeninPlaceholders.flatMap((p) => p.values))].join(', ');
      const samples = sampleList(this.amelogeninPlaceholders.map((p) => p.sample));
      this.issues.warnings.push({ row: null, message: `Amelogenin holds no X or Y but ${values} for samples ${samples}; read as not typed and skipped` });
    }
    if (this.amelogeninOffLadder.length > 0) {
      this.issues.warnings.push({ row: null, message: `Amelogenin OL (off-ladder) read as not typed for samples ${sampleList(this.amelogeninOffLadder)}; their X or Y kept` });
    }
  }

  /** One warning for the file naming each profile a CODIS CMF export would refuse, and why. */
  private reportNotCmf(): void {
    if (this.notCmf.length === 0) return;
    this.issues.warnings.push({ row: null, message: `Not exportable as CODIS CMF 3.2 as they stand (they can still be added): ${sampleList(this.notCmf)}` });
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
    this.readAmelogenin(sample);
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
    const profile = {
      profileId: sample.name,
      kind: profileKind(typed.map((m) => m.marker)),
      kit: sample.kit,
      sampleType: sample.sampleType,
      markerValues: typed.map((m) => ({ markerId: m.marker.id, marker: m.marker.name, alleles: normaliseMarkerAlleles(m.alleles) })),
      ...(sample.runs.size > 0 ? { replicates: this.replicatesOf(sample, typed) } : {}),
      errors: sample.errors,
      line: sample.line,
    };
    const obstacles = sample.errors.length === 0 ? cmfExportObstacles({ ...profile, sampleType: profile.sampleType ?? '' }) : [];
    if (obstacles.length > 0) this.notCmf.push(`${sample.name} (${obstacles.join('; ')})`);
    return profile;
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
