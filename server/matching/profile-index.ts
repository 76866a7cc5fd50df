import { compareAlleles, isAmelogenin } from '../../core/alleles';
import type { Genotype } from '../genetics/types';
import type { ProfileKind } from './types';

/** Allele indices are bytes: index 0 means "not typed", so a marker holds at most 255 distinct alleles. */
const MAX_ALLELES = 255;
const INITIAL_CAPACITY = 1024;
/** Growth factor: 1.25 keeps the spare room under a quarter (the ≤ 64 B/profile budget) while appends stay amortised O(1). */
const GROWTH = 1.25;

/**
 * One marker's column: an allele dictionary and, per profile slot, the genotype as two allele indices
 * (lo ≤ hi; a homozygote repeats its index; 0/0 = not typed).
 */
export interface MarkerColumn {
  readonly name: string;
  /** Dictionary: index → allele text; index 0 is the "not typed" placeholder. */
  readonly alleles: string[];
  readonly indexOf: Map<string, number>;
  lo: Uint8Array;
  hi: Uint8Array;
}

/** The genotype two allele indices stand for, alleles in designation order (as profiles store them). */
export function genotypeAt(column: MarkerColumn, lo: number, hi: number): Genotype {
  return lo === hi ? [column.alleles[lo]!] : [column.alleles[lo]!, column.alleles[hi]!].sort(compareAlleles);
}

/** Amelogenin is a sex marker: CODIS searches do not compare it, and populations hold no frequencies for it. */
export const isIgnoredMarker = (marker: string): boolean => isAmelogenin(marker);

/** Whether a genotype fits two allele indices: one or two distinct alleles (a mixture or a 3+ copy Y-STR marker does not). */
const fitsColumns = (genotype: Genotype): boolean => new Set(genotype).size <= 2;

/** Whose a profile is and what it is: the search rules pick profiles by organization and sample type. */
export interface ProfileGroup {
  organizationId: string;
  sampleType: string;
}

const groupKey = (g: ProfileGroup) => `${g.organizationId}\u0000${g.sampleType}`;

/**
 * The approved profiles of one chemistry, column-wise (GENETICS.md "How the search reaches memory
 * speed"): per marker two byte columns, profile ids in slot order. Profiles that do not fit two
 * indices per marker (mixtures of 3+ alleles, or a marker whose dictionary is full) live in a side
 * list that searches compare one by one; there are few of them in a database of references.
 */
export class ProfileIndex {
  private capacity = INITIAL_CAPACITY;
  private count = 0;
  /** Profile id per slot (slots 0 … size−1 are live; removal moves the last slot into the hole). */
  readonly ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly columns = new Map<string, MarkerColumn>();
  /** Profiles searched by plain comparison (mixtures, dictionary overflow): id → genotypes. */
  readonly side = new Map<string, ReadonlyMap<string, Genotype>>();
  /** Group dictionary (organization × sample type); code 0 is "unknown" (a profile given without one). */
  private readonly groups: ProfileGroup[] = [{ organizationId: '', sampleType: '' }];
  private readonly groupCodes = new Map<string, number>();
  private readonly groupCounts: number[] = [0];
  /** Group code per slot, and per side-list profile. */
  private groupColumn = new Uint16Array(INITIAL_CAPACITY);
  private readonly sideGroups = new Map<string, number>();

  constructor(
    readonly chemistryId: string,
    readonly kind: ProfileKind,
  ) {}

  /** Profiles in the typed arrays (the side list not counted). */
  get size(): number {
    return this.count;
  }

  /** The id of the profile in `slot` (0 ≤ slot < size). */
  idAt(slot: number): string {
    return this.ids[slot]!;
  }

  /** Every profile held, columns and side list. */
  get profileCount(): number {
    return this.count + this.side.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id) || this.side.has(id);
  }

  /** The marker columns, in the order markers first appeared. */
  markerColumns(): MarkerColumn[] {
    return [...this.columns.values()];
  }

  column(marker: string): MarkerColumn | undefined {
    return this.columns.get(marker);
  }

  /** Makes room for `n` profiles in the columns at once (a start-up load knows its count). */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    this.capacity = n;
    for (const column of this.columns.values()) this.resize(column);
    this.resizeGroups();
  }

  /** Adds a profile, or replaces the one with its id (an approval after a reset); amortised O(markers). */
  upsert(id: string, genotypes: ReadonlyMap<string, Genotype>, group?: ProfileGroup): void {
    const kept = [...genotypes].filter(([marker, g]) => !isIgnoredMarker(marker) && g.length > 0);
    const code = group ? this.groupCodeFor(group) : 0;
    this.remove(id);
    this.groupCounts[code]!++;
    if (!kept.every(([marker, g]) => fitsColumns(g) && this.hasRoomFor(marker, g))) {
      this.side.set(id, new Map(kept));
      this.sideGroups.set(id, code);
      return;
    }
    if (this.count === this.capacity) this.grow();
    const slot = this.count++;
    this.ids[slot] = id;
    this.slotOf.set(id, slot);
    this.groupColumn[slot] = code;
    for (const [marker, genotype] of kept) {
      const column = this.columnFor(marker);
      const [a, b] = [...new Set(genotype)].map((allele) => this.alleleIndex(column, allele));
      column.lo[slot] = Math.min(a!, b ?? a!);
      column.hi[slot] = Math.max(a!, b ?? a!);
    }
  }

  /** Removes a profile (a reset or deletion): the last slot moves into its place, so the arrays stay dense. O(markers). */
  remove(id: string): void {
    if (this.side.delete(id)) {
      this.groupCounts[this.sideGroups.get(id)!]!--;
      this.sideGroups.delete(id);
      return;
    }
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const last = --this.count;
    this.groupCounts[this.groupColumn[slot]!]!--;
    this.groupColumn[slot] = this.groupColumn[last]!;
    this.groupColumn[last] = 0;
    for (const column of this.columns.values()) {
      column.lo[slot] = column.lo[last]!;
      column.hi[slot] = column.hi[last]!;
      column.lo[last] = column.hi[last] = 0;
    }
    const moved = this.ids[last]!;
    this.ids[slot] = moved;
    this.slotOf.set(moved, slot);
    this.ids.length = last;
    this.slotOf.delete(id);
  }

  /** A held profile's genotypes, decoded from the columns (or the side list); undefined when absent. */
  genotypesOf(id: string): ReadonlyMap<string, Genotype> | undefined {
    const side = this.side.get(id);
    if (side) return side;
    const slot = this.slotOf.get(id);
    if (slot === undefined) return undefined;
    const out = new Map<string, Genotype>();
    for (const column of this.columns.values()) {
      const lo = column.lo[slot]!;
      const hi = column.hi[slot]!;
      if (lo !== 0) out.set(column.name, genotypeAt(column, lo, hi));
    }
    return out;
  }

  /** Which groups (organization × sample type) a search reads: a mask over group codes for {@link inGroups}. */
  groupMask(accept: (group: ProfileGroup) => boolean): Uint8Array {
    return Uint8Array.from(this.groups, (g, code) => (code !== 0 && accept(g) ? 1 : 0));
  }

  /** Whether the profile in `slot` belongs to a group of the mask (groups added after the mask was made are outside it). */
  slotInGroups(slot: number, mask: Uint8Array): boolean {
    return mask[this.groupColumn[slot]!] === 1;
  }

  /** Whether a side-list profile belongs to a group of the mask. */
  sideInGroups(id: string, mask: Uint8Array): boolean {
    return mask[this.sideGroups.get(id) ?? 0] === 1;
  }

  /** Whether a held profile (columns or side list) belongs to a group of the mask. */
  idInGroups(id: string, mask: Uint8Array): boolean {
    const slot = this.slotOf.get(id);
    return slot !== undefined ? this.slotInGroups(slot, mask) : this.sideInGroups(id, mask);
  }

  /** Profiles (columns and side list) in the groups of the mask: the N of a search's expected chance hits. */
  countInGroups(mask: Uint8Array): number {
    let n = 0;
    for (let code = 0; code < mask.length; code++) if (mask[code] === 1) n += this.groupCounts[code]!;
    return n;
  }

  /** Bytes of typed arrays the columns hold (allocated, spare room included). */
  indexBytes(): number {
    let bytes = this.groupColumn.byteLength;
    for (const column of this.columns.values()) bytes += column.lo.byteLength + column.hi.byteLength;
    return bytes;
  }

  private hasRoomFor(marker: string, genotype: Genotype): boolean {
    const column = this.columns.get(marker);
    const distinct = [...new Set(genotype)];
    const fresh = column ? distinct.filter((a) => !column.indexOf.has(a)).length : distinct.length;
    return (column ? column.alleles.length - 1 : 0) + fresh <= MAX_ALLELES;
  }

  private groupCodeFor(group: ProfileGroup): number {
    let code = this.groupCodes.get(groupKey(group));
    if (code === undefined) {
      code = this.groups.length;
      this.groups.push({ organizationId: group.organizationId, sampleType: group.sampleType });
      this.groupCounts.push(0);
      this.groupCodes.set(groupKey(group), code);
    }
    return code;
  }

  private columnFor(marker: string): MarkerColumn {
    let column = this.columns.get(marker);
    if (!column) {
      column = { name: marker, alleles: [''], indexOf: new Map(), lo: new Uint8Array(this.capacity), hi: new Uint8Array(this.capacity) };
      this.columns.set(marker, column);
    }
    return column;
  }

  private alleleIndex(column: MarkerColumn, allele: string): number {
    let index = column.indexOf.get(allele);
    if (index === undefined) {
      index = column.alleles.length;
      column.alleles.push(allele);
      column.indexOf.set(allele, index);
    }
    return index;
  }

  private grow(): void {
    this.capacity = Math.ceil(this.capacity * GROWTH);
    for (const column of this.columns.values()) this.resize(column);
    this.resizeGroups();
  }

  private resizeGroups(): void {
    const groups = new Uint16Array(this.capacity);
    groups.set(this.groupColumn.subarray(0, Math.min(this.groupColumn.length, this.capacity)));
    this.groupColumn = groups;
  }

  private resize(column: MarkerColumn): void {
    const lo = new Uint8Array(this.capacity);
    const hi = new Uint8Array(this.capacity);
    lo.set(column.lo.subarray(0, Math.min(column.lo.length, this.capacity)));
    hi.set(column.hi.subarray(0, Math.min(column.hi.length, this.capacity)));
    column.lo = lo;
    column.hi = hi;
  }
}
