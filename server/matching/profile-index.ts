import { isAmelogenin } from '../../core/alleles';
import type { Genotype } from '../genetics/types';
import { ColumnArena } from './column-arena';
import { genotypeAt, type MarkerColumn } from './marker-column';
import { adoptMemory, memoryKey, sharedCopy, sharedUint16 } from './shared-memory';
import { SlotIds, type SlotIdsSnapshot } from './slot-ids';
import type { ProfileKind } from './types';

/** Allele indices are bytes: index 0 means "not typed", so a marker holds at most 255 distinct alleles. */
const MAX_ALLELES = 255;
const INITIAL_CAPACITY = 1024;
/**
 * Growth factors: appends stay amortised O(1) while the spare room stays small — up to a quarter below
 * 65,536 slots, a sixteenth above (issue 15: ≤ 64 B/profile; a start-up load reserves or trims exactly).
 */
const GROWTH = 1.25;
const LARGE = 1 << 16;
const LARGE_GROWTH = 1.0625;

export type { MarkerColumn } from './marker-column';

/** Amelogenin is a sex marker: CODIS searches do not compare it, and populations hold no frequencies for it. */
export const isIgnoredMarker = (marker: string): boolean => isAmelogenin(marker);

/** Whose a profile is and what it is: the search rules pick profiles by organization and sample type. */
export interface ProfileGroup {
  organizationId: string;
  sampleType: string;
}

const groupKey = (g: ProfileGroup) => `${g.organizationId}\u0000${g.sampleType}`;

/** A part of an index's slots [from, to) that one search thread scans; the parts of a search cover every slot once, in order. */
export interface IndexSlice {
  from: number;
  to: number;
}

/** One index at a moment, for a search worker (ARCHITECTURE.md "Using every core"): its own shared arrays (no copy), the
 * dictionaries copied; true while pinned (the owner appends past `size` only, and copies its arrays before editing below). */
export interface ProfileIndexSnapshot {
  chemistryId: string;
  kind: ProfileKind;
  version: number;
  /** The shared WebAssembly memory of every column (kernels read them in place) and its name ({@link memoryKey}: a worker reads one memory through one object). */
  memory: WebAssembly.Memory;
  memoryKey: string;
  columns: { name: string; alleles: string[]; lo: Uint8Array; hi: Uint8Array }[];
  ids: SlotIdsSnapshot;
  groups: ProfileGroup[];
  groupCounts: number[];
  groupColumn: Uint16Array;
  side: [string, ReadonlyMap<string, Genotype>, number][];
}

/**
 * The approved profiles of one chemistry, column-wise (GENETICS.md "How the search reaches memory
 * speed"): per marker two byte columns, a group code and the profile id (16 bytes, {@link SlotIds}) per
 * slot — about 63 bytes per profile on 20 markers. Profiles that do not fit two
 * indices per marker (mixtures of 3+ alleles, or a marker whose dictionary is full) live in a side
 * list that searches compare one by one; there are few of them in a database of references.
 */
export class ProfileIndex {
  private capacity = INITIAL_CAPACITY;
  /** Profile id per slot (slots 0 … size−1 are live; removal moves the last slot into the hole), and id → slot. */
  private ids = new SlotIds(INITIAL_CAPACITY);
  private readonly columns = new Map<string, MarkerColumn>();
  /** The shared WebAssembly memory the columns live in (issue 29). */
  private arena = new ColumnArena();
  /** Profiles searched by plain comparison (mixtures, dictionary overflow): id → genotypes. */
  readonly side = new Map<string, ReadonlyMap<string, Genotype>>();
  /** Group dictionary (organization × sample type); code 0 is "unknown" (a profile given without one). */
  private readonly groups: ProfileGroup[] = [{ organizationId: '', sampleType: '' }];
  private readonly groupCodes = new Map<string, number>();
  private readonly groupCounts: number[] = [0];
  /** Group code per slot, and per side-list profile. */
  private groupColumn = sharedUint16(INITIAL_CAPACITY);
  private readonly sideGroups = new Map<string, number>();
  private edits = 0;
  /** Searches reading a snapshot of this index right now: while any do, a slot below the size is never edited in place. */
  private pins = 0;
  /** The arrays are already a private copy since the last pin was taken: no second copy for further edits. */
  private detached = true;

  constructor(
    readonly chemistryId: string,
    readonly kind: ProfileKind,
  ) {}

  /** Changes with every upsert and removal: a copy of the columns made at one version is the index as it is while the version holds. */
  get version(): number {
    return this.edits;
  }

  /**
   * The index as it is now for a search worker, pinned until `unpin()`: edits meanwhile leave the snapshot's
   * bytes alone (see ProfileIndexSnapshot).
   */
  pin(): ProfileIndexSnapshot {
    this.pins++;
    this.detached = false;
    return {
      chemistryId: this.chemistryId,
      kind: this.kind,
      version: this.edits,
      memory: this.arena.memory,
      memoryKey: memoryKey(this.arena.memory),
      columns: [...this.columns.values()].map((c) => ({ name: c.name, alleles: [...c.alleles], lo: c.lo, hi: c.hi })),
      ids: this.ids.snapshot(),
      groups: this.groups.map((g) => ({ ...g })),
      groupCounts: [...this.groupCounts],
      groupColumn: this.groupColumn,
      side: [...this.side].map(([id, genotypes]) => [id, genotypes, this.sideGroups.get(id) ?? 0]),
    };
  }

  /** A search that read a pinned snapshot is done with it. */
  unpin(): void {
    if (this.pins > 0) this.pins--;
  }

  /** Searches holding a snapshot of this index. */
  get pinned(): number {
    return this.pins;
  }

  /** A read-only index over a snapshot's shared arrays, in a search worker: every scan reads it as the owner's at that moment. */
  static view(snapshot: ProfileIndexSnapshot, slice?: IndexSlice): ProfileIndex {
    const index = new ProfileIndex(snapshot.chemistryId, snapshot.kind);
    index.edits = snapshot.version;
    const from = slice?.from ?? 0;
    const to = slice ? Math.min(slice.to, snapshot.ids.count) : snapshot.ids.count;
    const memory = adoptMemory(snapshot.memoryKey, snapshot.memory);
    index.arena.memory = memory;
    for (const c of snapshot.columns) index.columns.set(c.name, { name: c.name, alleles: c.alleles, indexOf: new Map(c.alleles.map((a, i) => [a, i])), ...ColumnArena.view(memory, c, slice && { from, to }) });
    index.ids = SlotIds.view(snapshot.ids, slice ? { from, to } : undefined);
    index.capacity = snapshot.ids.capacity;
    snapshot.groups.forEach((g, code) => {
      index.groups[code] = g;
      if (code > 0) index.groupCodes.set(groupKey(g), code);
    });
    index.groupCounts.length = 0;
    index.groupCounts.push(...snapshot.groupCounts);
    index.groupColumn = slice ? snapshot.groupColumn.subarray(from, to) : snapshot.groupColumn;
    // The side list is searched once, by the last slice (a scan reads it after the columns, so the slices in order read
    // what the whole does); the group counts stay the whole index's (N of the chance figures).
    for (const [id, genotypes, code] of to >= snapshot.ids.count ? snapshot.side : []) {
      index.side.set(id, genotypes);
      index.sideGroups.set(id, code);
    }
    return index;
  }

  /** Profiles in the typed arrays (the side list not counted). */
  get size(): number {
    return this.ids.size;
  }

  /** The id of the profile in `slot` (0 ≤ slot < size). It is decoded from 16 bytes: ask it for kept candidates, not in a scan's loop. */
  idAt(slot: number): string {
    return this.ids.idAt(slot);
  }

  /** The slot of a profile in the columns, or −1 (absent, or in the side list): a scan excludes its query by slot. */
  slotOf(id: string): number {
    return this.ids.slotOf(id);
  }

  /** Every profile held, columns and side list. */
  get profileCount(): number {
    return this.ids.size + this.side.size;
  }

  has(id: string): boolean {
    return this.ids.slotOf(id) >= 0 || this.side.has(id);
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
    if (n > this.capacity) this.setCapacity(n);
  }

  /** Gives back the spare room (after a start-up load that did not reserve) but `spare` × size: capacity = size + that. */
  trim(spare = 0): void {
    const capacity = Math.max(1, this.size + Math.ceil(this.size * spare));
    if (this.capacity > capacity) this.setCapacity(capacity);
  }

  /** Adds a profile, or replaces the one with its id (an approval after a reset); amortised O(markers). */
  upsert(id: string, genotypes: ReadonlyMap<string, Genotype>, group?: ProfileGroup): void {
    const code = group ? this.groupCodeFor(group) : 0;
    this.remove(id);
    this.edits++;
    this.groupCounts[code]!++;
    if (!this.fitsColumns(genotypes)) {
      this.side.set(id, new Map([...genotypes].filter(([marker, g]) => g.length > 0 && !isIgnoredMarker(marker))));
      this.sideGroups.set(id, code);
      return;
    }
    if (this.size === this.capacity) this.grow();
    // Room running low: the next capacity's id table is built ahead, a little per edit (SlotIds.prepareTable).
    else if (this.capacity - this.size <= Math.ceil(this.capacity / 32)) this.ids.prepareTable(this.nextCapacity());
    const slot = this.ids.append(id);
    this.groupColumn[slot] = code;
    // A start-up load passes a million profiles here: no arrays or sets per marker.
    for (const [marker, genotype] of genotypes) {
      if (genotype.length === 0 || (!this.columns.has(marker) && isIgnoredMarker(marker))) continue;
      const column = this.columnFor(marker);
      let lo = this.alleleIndex(column, genotype[0]!);
      let hi = lo;
      for (let i = 1; i < genotype.length; i++) {
        const index = this.alleleIndex(column, genotype[i]!);
        if (index < lo) lo = index;
        else if (index > hi) hi = index;
      }
      column.lo[slot] = lo;
      column.hi[slot] = hi;
    }
  }

  /** Removes a profile (a reset or deletion): the last slot moves into its place, so the arrays stay dense. O(markers). */
  remove(id: string): void {
    this.edits++;
    if (this.side.delete(id)) {
      this.groupCounts[this.sideGroups.get(id)!]!--;
      this.sideGroups.delete(id);
      return;
    }
    const slot = this.ids.slotOf(id);
    if (slot < 0) return;
    // A search reads these bytes now: it keeps them, this edits a copy (an append needs none: it writes past every snapshot's size).
    if (this.pins > 0 && !this.detached) this.detach();
    const last = this.size - 1;
    this.groupCounts[this.groupColumn[slot]!]!--;
    this.groupColumn[slot] = this.groupColumn[last]!;
    this.groupColumn[last] = 0;
    for (const column of this.columns.values()) {
      column.lo[slot] = column.lo[last]!;
      column.hi[slot] = column.hi[last]!;
      column.lo[last] = column.hi[last] = 0;
    }
    this.ids.removeAt(slot);
  }

  /** A held profile's genotypes, decoded from the columns (or the side list); undefined when absent. */
  genotypesOf(id: string): ReadonlyMap<string, Genotype> | undefined {
    const side = this.side.get(id);
    if (side) return side;
    const slot = this.ids.slotOf(id);
    if (slot < 0) return undefined;
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
    const slot = this.ids.slotOf(id);
    return slot >= 0 ? this.slotInGroups(slot, mask) : this.sideInGroups(id, mask);
  }

  /** Profiles (columns and side list) in the groups of the mask: the N of a search's expected chance hits. */
  countInGroups(mask: Uint8Array): number {
    let n = 0;
    for (let code = 0; code < mask.length; code++) if (mask[code] === 1) n += this.groupCounts[code]!;
    return n;
  }

  /** Bytes of typed arrays the index holds: columns, group codes, ids and their lookup table (allocated, spare slots included; a small index's unused column pairs of its last page are not). */
  indexBytes(): number {
    let bytes = this.groupColumn.byteLength + this.ids.bytes();
    for (const column of this.columns.values()) bytes += column.lo.byteLength + column.hi.byteLength;
    return bytes;
  }

  /** Bytes committed in the columns' WebAssembly memory (columns, and any search thread's working room claimed in it). */
  memoryBytes(): number {
    return this.arena.memory.buffer.byteLength;
  }

  /**
   * Whether a profile fits the columns: at most two distinct alleles per marker (a mixture or a 3+ copy
   * Y-STR marker does not), and room in each marker's dictionary for the alleles it does not hold yet.
   */
  private fitsColumns(genotypes: ReadonlyMap<string, Genotype>): boolean {
    for (const [marker, genotype] of genotypes) {
      if (genotype.length === 0) continue;
      const column = this.columns.get(marker);
      if (!column && isIgnoredMarker(marker)) continue;
      const first = genotype[0]!;
      let second: string | undefined;
      for (const allele of genotype) {
        if (allele === first || allele === second) continue;
        if (second !== undefined) return false;
        second = allele;
      }
      const fresh = (column?.indexOf.has(first) ? 0 : 1) + (second === undefined || column?.indexOf.has(second) ? 0 : 1);
      if ((column ? column.alleles.length - 1 : 0) + fresh > MAX_ALLELES) return false;
    }
    return true;
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
      column = { name: marker, alleles: [''], indexOf: new Map(), ...this.arena.column(this.capacity, [...this.columns.values()]) };
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

  private nextCapacity(): number {
    return Math.ceil(this.capacity * (this.capacity < LARGE ? GROWTH : LARGE_GROWTH));
  }

  private grow(): void {
    this.setCapacity(this.nextCapacity());
  }

  /** Moves every array to fresh shared memory of the same size (copy-on-write under a pin). */
  private detach(): void {
    this.arena.relocate([...this.columns.values()], this.capacity);
    this.groupColumn = sharedCopy(this.groupColumn, this.groupColumn.length, sharedUint16);
    this.ids.detach();
    this.detached = true;
  }

  private setCapacity(capacity: number): void {
    this.capacity = capacity;
    // Fresh arrays: no snapshot shares them.
    this.detached = true;
    this.arena.relocate([...this.columns.values()], this.capacity);
    this.groupColumn = sharedCopy(this.groupColumn, this.capacity, sharedUint16);
    this.ids.resize(capacity);
  }
}
