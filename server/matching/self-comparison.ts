import { compareAlleles } from '../../core/alleles';
import type { Genotype } from '../genetics/types';
import type { MarkerColumn, ProfileIndex } from './profile-index';

/**
 * Database self-comparison (issue 15): every pair of one chemistry's approved profiles compared, to
 * find the same person entered twice (an offender sampled twice under two names) before an audit.
 *
 * Definitions, per pair of profiles:
 * - the markers **compared** are those typed in either profile (untyped in both: not compared);
 * - a marker is **equal** when both profiles are typed there with the same genotype;
 * - the **differences** are the compared markers that are not equal (typed in one profile only counts
 *   as a difference, so a partial profile is not called a duplicate of a full one on its few markers);
 * - a **duplicate** has 0 differences, a **near-duplicate** 1 … `maxDifferences` (default 2, at most 3);
 * - either is reported only with at least `minEqualMarkers` equal markers (default 10), so two poor
 *   partial profiles that agree on four markers are not called duplicates.
 * Amelogenin is not in the index's columns, so it is never compared.
 *
 * Exact without comparing all pairs (pigeonhole blocking, as in Manku et al. 2007 "Detecting
 * near-duplicates for web crawling"): the markers are split into maxDifferences + 1 blocks; a pair
 * with ≤ maxDifferences differences is identical (untyped-in-both included) on at least one block.
 * Per block the profiles are grouped by their block's genotype bytes (a 32-bit hash sorted, then split
 * by exact equality); only pairs inside a group are verified, marker by marker. A group too large to
 * verify pair by pair (many partial profiles sharing an untyped block) is searched again the same way
 * on the markers not yet known equal — the pair's ≤ maxDifferences differences all lie there — until it
 * is small or ≤ maxDifferences markers remain (then every pair in it is within the limit and verified).
 * Before any of this, exactly identical profiles are folded into one representative each: a class of
 * k identical profiles is k(k−1)/2 duplicate pairs, and the search runs on distinct genotypes only.
 * A pair found by several blocks is reported once. Profiles with fewer than minEqualMarkers typed
 * markers cannot be in a reported pair and are left out at the start.
 *
 * The side list of the index (mixtures: 3+ alleles at a marker) is left out: a self-comparison looks
 * for single-source references entered twice, and a mixture is neither; the count left out is returned.
 */

/** The columns the comparison reads: one chemistry's markers, slots 0 … size−1. */
export interface ComparisonColumns {
  /** Marker names, one per column. */
  names: readonly string[];
  /** Allele dictionaries per column (index → allele; 0 is "not typed"), to decode the differing genotypes. */
  alleles: readonly (readonly string[])[];
  lo: readonly Uint8Array[];
  hi: readonly Uint8Array[];
  /** Profiles (slots) held. */
  size: number;
  /** Which slots take part (1) — the requesting user's organizations; all when absent. */
  include?: Uint8Array;
}

export interface SelfComparisonOptions {
  /** Differences a near-duplicate may have: 0 … 3 (default 2). */
  maxDifferences?: number;
  /** Equal markers a reported pair needs at least (default 10). */
  minEqualMarkers?: number;
  /** Pairs kept at most (default 100,000); more set `truncated`. */
  maxPairs?: number;
  /** Called as the work moves on (after each block, and every ~1M pairs verified). */
  onProgress?: (progress: SelfComparisonProgress) => void;
}

export const SELF_COMPARISON_DEFAULTS = { maxDifferences: 2, minEqualMarkers: 10, maxPairs: 100_000 } as const;
export const MAX_DIFFERENCES_LIMIT = 3;

export interface SelfComparisonProgress {
  /** Blocks grouped so far (the identity grouping, then maxDifferences + 1 blocks; nested searches add to both). */
  blocksDone: number;
  blocksTotal: number;
  /** Candidate pairs verified marker by marker so far. */
  pairsVerified: number;
  /** Pairs found so far. */
  pairsFound: number;
}

export interface DifferingMarker {
  marker: string;
  /** The first profile's genotype there, or null when not typed. */
  first: Genotype | null;
  second: Genotype | null;
}

/** One reported pair, by slot (first < second). */
export interface SelfComparisonPair {
  first: number;
  second: number;
  kind: 'duplicate' | 'near-duplicate';
  equalMarkers: number;
  differences: DifferingMarker[];
}

export interface SelfComparisonResult {
  pairs: SelfComparisonPair[];
  /** Profiles compared (taking part and with ≥ minEqualMarkers typed markers). */
  compared: number;
  /** Profiles taking part but with fewer typed markers than minEqualMarkers. */
  tooFewMarkers: number;
  pairsVerified: number;
  truncated: boolean;
  maxDifferences: number;
  minEqualMarkers: number;
}

/** Groups at most this large are verified pair by pair; larger ones are searched again on the remaining markers. */
const LEAF_GROUP = 48;
const PROGRESS_EVERY_PAIRS = 1 << 20;

/** Checks the parameters, naming the bad value and the allowed ones. */
export function selfComparisonParameters(options: SelfComparisonOptions): { maxDifferences: number; minEqualMarkers: number; maxPairs: number } {
  const maxDifferences = options.maxDifferences ?? SELF_COMPARISON_DEFAULTS.maxDifferences;
  const minEqualMarkers = options.minEqualMarkers ?? SELF_COMPARISON_DEFAULTS.minEqualMarkers;
  const maxPairs = options.maxPairs ?? SELF_COMPARISON_DEFAULTS.maxPairs;
  if (!Number.isInteger(maxDifferences) || maxDifferences < 0 || maxDifferences > MAX_DIFFERENCES_LIMIT) throw new RangeError(`maxDifferences is ${maxDifferences}: it must be a whole number from 0 to ${MAX_DIFFERENCES_LIMIT}`);
  if (!Number.isInteger(minEqualMarkers) || minEqualMarkers < 1) throw new RangeError(`minEqualMarkers is ${minEqualMarkers}: it must be a whole number of at least 1`);
  if (!Number.isInteger(maxPairs) || maxPairs < 1) throw new RangeError(`maxPairs is ${maxPairs}: it must be a whole number of at least 1`);
  return { maxDifferences, minEqualMarkers, maxPairs };
}

/** The columns of a ProfileIndex as views (no copy), optionally restricted to the slots of a group mask. */
export function columnsOf(index: ProfileIndex, groupMask?: Uint8Array): ComparisonColumns {
  const columns: MarkerColumn[] = index.markerColumns();
  const size = index.size;
  let include: Uint8Array | undefined;
  if (groupMask) {
    include = new Uint8Array(size);
    for (let slot = 0; slot < size; slot++) include[slot] = index.slotInGroups(slot, groupMask) ? 1 : 0;
  }
  return {
    names: columns.map((c) => c.name),
    alleles: columns.map((c) => c.alleles),
    lo: columns.map((c) => c.lo.subarray(0, size)),
    hi: columns.map((c) => c.hi.subarray(0, size)),
    size,
    ...(include ? { include } : {}),
  };
}

/** Every duplicate and near-duplicate pair of the columns (see the definitions at the top of this file). */
export function compareSelf(columns: ComparisonColumns, options: SelfComparisonOptions = {}): SelfComparisonResult {
  const { maxDifferences: d, minEqualMarkers, maxPairs } = selfComparisonParameters(options);
  const { lo, hi, size, include } = columns;
  const markerCount = lo.length;

  // Typed markers per slot; slots with fewer than minEqualMarkers cannot be in a reported pair.
  const typed = new Uint8Array(size);
  const typedPerMarker = new Array<number>(markerCount).fill(0);
  for (let m = 0; m < markerCount; m++) {
    const l = lo[m]!;
    let count = 0;
    for (let s = 0; s < size; s++) {
      if (l[s] !== 0) {
        typed[s]!++;
        count++;
      }
    }
    typedPerMarker[m] = count;
  }
  let taking = 0;
  const activeList: number[] = [];
  for (let s = 0; s < size; s++) {
    if (include && include[s] !== 1) continue;
    taking++;
    if (typed[s]! >= minEqualMarkers) activeList.push(s);
  }
  const active = Uint32Array.from(activeList);

  const pairs: SelfComparisonPair[] = [];
  const seen = new Set<number>();
  let truncated = false;
  const progress: SelfComparisonProgress = { blocksDone: 0, blocksTotal: 1 + (d + 1), pairsVerified: 0, pairsFound: 0 };
  let nextReport = PROGRESS_EVERY_PAIRS;
  const report = () => options.onProgress?.({ ...progress });

  const allMarkers = Array.from({ length: markerCount }, (_, m) => m);

  /** Records a pair (slots in any order) once; the caller has verified it. */
  const record = (x: number, y: number, equal: number) => {
    const [a, b] = x < y ? [x, y] : [y, x];
    const key = a * size + b;
    if (seen.has(key)) return;
    if (pairs.length >= maxPairs) {
      truncated = true;
      return;
    }
    seen.add(key);
    const differences: DifferingMarker[] = [];
    for (let m = 0; m < markerCount; m++) {
      const la = lo[m]![a]!, lb = lo[m]![b]!, ha = hi[m]![a]!, hb = hi[m]![b]!;
      if ((la === 0 && lb === 0) || (la === lb && ha === hb)) continue;
      const dict = columns.alleles[m]!;
      const decode = (l: number, h: number): Genotype | null => (l === 0 ? null : l === h ? [dict[l]!] : [dict[l]!, dict[h]!].sort(compareAlleles));
      differences.push({ marker: columns.names[m]!, first: decode(la, ha), second: decode(lb, hb) });
    }
    pairs.push({ first: a, second: b, kind: differences.length === 0 ? 'duplicate' : 'near-duplicate', equalMarkers: equal, differences });
    progress.pairsFound = pairs.length;
  };

  /** Verifies one pair of representatives: equal markers, or −1 when over the limit or too few are equal. */
  const verify = (a: number, b: number): number => {
    progress.pairsVerified++;
    if (progress.pairsVerified >= nextReport) {
      nextReport += PROGRESS_EVERY_PAIRS;
      report();
    }
    let diff = 0;
    let equal = 0;
    for (let m = 0; m < markerCount; m++) {
      const la = lo[m]![a]!, lb = lo[m]![b]!;
      if (la === lb && hi[m]![a] === hi[m]![b]) {
        if (la !== 0) equal++;
      } else if (++diff > d) return -1;
    }
    return equal >= minEqualMarkers ? equal : -1;
  };

  // 1. Identical profiles fold into classes; the search below runs on one representative per class.
  const classes = groupExact(lo, hi, active, allMarkers);
  progress.blocksDone++;
  report();
  const membersOf = new Map<number, Uint32Array>();
  const folded = new Uint8Array(size);
  for (const cls of classes) {
    membersOf.set(cls[0]!, cls);
    for (let i = 1; i < cls.length; i++) folded[cls[i]!] = 1;
    // Every pair inside a class: 0 differences, all typed markers equal (≥ minEqualMarkers by the filter above).
    for (let i = 0; i < cls.length && !truncated; i++) for (let j = i + 1; j < cls.length && !truncated; j++) record(cls[i]!, cls[j]!, typed[cls[i]!]!);
  }
  const representatives = active.filter((s) => folded[s] === 0);

  /** A verified pair of representatives stands for every pair of their classes' members. */
  const recordClasses = (a: number, b: number, equal: number) => {
    const ma = membersOf.get(a) ?? Uint32Array.of(a);
    const mb = membersOf.get(b) ?? Uint32Array.of(b);
    for (let i = 0; i < ma.length && !truncated; i++) for (let j = 0; j < mb.length && !truncated; j++) record(ma[i]!, mb[j]!, equal);
  };

  const verifyAll = (group: Uint32Array) => {
    for (let i = 0; i < group.length && !truncated; i++) {
      for (let j = i + 1; j < group.length && !truncated; j++) {
        const a = group[i]!, b = group[j]!;
        const first = Math.min(a, b), second = Math.max(a, b);
        if (seen.has(first * size + second)) continue;
        const equal = verify(a, b);
        if (equal >= 0) recordClasses(a, b, equal);
      }
    }
  };

  /** The pairs of `members` (identical on every marker not in `remaining`) with ≤ d differences in `remaining`. */
  const search = (members: Uint32Array, remaining: readonly number[], top: boolean) => {
    if (remaining.length <= d) {
      verifyAll(members);
      return;
    }
    const blocks = splitBlocks(remaining, d + 1);
    if (!top) progress.blocksTotal += blocks.length;
    for (const block of blocks) {
      if (truncated) return;
      const groups = groupExact(lo, hi, members, block);
      progress.blocksDone++;
      report();
      const rest = remaining.filter((m) => !block.includes(m));
      for (const group of groups) {
        if (truncated) return;
        if (group.length <= LEAF_GROUP) verifyAll(group);
        else search(group, rest, false);
      }
    }
  };

  // 2. The blocks: markers ordered by how often they are typed, dealt round-robin, so no block is made
  //    of the markers partial profiles lack.
  const order = [...allMarkers].sort((x, y) => typedPerMarker[y]! - typedPerMarker[x]! || x - y);
  if (representatives.length > 1) search(representatives, order, true);
  else progress.blocksDone = progress.blocksTotal;
  report();

  pairs.sort((x, y) => x.differences.length - y.differences.length || y.equalMarkers - x.equalMarkers || x.first - y.first || x.second - y.second);
  return { pairs, compared: active.length, tooFewMarkers: taking - active.length, pairsVerified: progress.pairsVerified, truncated, maxDifferences: d, minEqualMarkers };
}

/** One pair by the definitions at the top of this file: the reported pair, or null when it is not one (a check of a finished report against a changed index). */
export function comparePair(columns: ComparisonColumns, a: number, b: number, options: SelfComparisonOptions = {}): SelfComparisonPair | null {
  const { maxDifferences, minEqualMarkers } = selfComparisonParameters(options);
  const [first, second] = a < b ? [a, b] : [b, a];
  let equal = 0;
  const differences: DifferingMarker[] = [];
  columns.lo.forEach((lo, m) => {
    const hi = columns.hi[m]!;
    const la = lo[first]!, lb = lo[second]!, ha = hi[first]!, hb = hi[second]!;
    if (la === 0 && lb === 0) return;
    if (la === lb && ha === hb) {
      equal++;
      return;
    }
    const dict = columns.alleles[m]!;
    const decode = (l: number, h: number): Genotype | null => (l === 0 ? null : l === h ? [dict[l]!] : [dict[l]!, dict[h]!].sort(compareAlleles));
    differences.push({ marker: columns.names[m]!, first: decode(la, ha), second: decode(lb, hb) });
  });
  if (differences.length > maxDifferences || equal < minEqualMarkers) return null;
  return { first, second, kind: differences.length === 0 ? 'duplicate' : 'near-duplicate', equalMarkers: equal, differences };
}

/** `markers` dealt round-robin into `count` non-empty blocks (markers.length ≥ count). */
function splitBlocks(markers: readonly number[], count: number): number[][] {
  const blocks: number[][] = Array.from({ length: count }, () => []);
  markers.forEach((m, i) => blocks[i % count]!.push(m));
  return blocks;
}

/**
 * The groups (2+ members) of `members` whose genotypes on `markers` are byte-for-byte the same: a
 * 32-bit FNV-1a hash per member, packed with the member's position into one float64 key and sorted
 * (a typed-array sort, no comparator), then each run of equal hashes split by exact comparison.
 */
export function groupExact(lo: readonly Uint8Array[], hi: readonly Uint8Array[], members: Uint32Array, markers: readonly number[]): Uint32Array[] {
  const n = members.length;
  if (n < 2) return [];
  if (markers.length === 0) return [members];
  const indexBits = Math.max(1, Math.ceil(Math.log2(n)));
  const hashBits = Math.min(32, 53 - indexBits);
  const shift = 2 ** indexBits;
  const cols = markers.map((m) => [lo[m]!, hi[m]!] as const);
  // Column by column over the members (each column read in order), FNV-1a over (lo, hi) bytes.
  const hashes = new Int32Array(n).fill(0x811c9dc5 | 0);
  for (const [l, u] of cols) {
    for (let i = 0; i < n; i++) {
      const s = members[i]!;
      hashes[i] = Math.imul(Math.imul(hashes[i]! ^ l[s]!, 0x01000193) ^ u[s]!, 0x01000193);
    }
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let h = hashes[i]!;
    h ^= h >>> 16;
    h = Math.imul(h, 0x45d9f3b);
    h ^= h >>> 16;
    keys[i] = ((h >>> 0) >>> (32 - hashBits)) * shift + i;
  }
  keys.sort();
  const groups: Uint32Array[] = [];
  const sameBlock = (a: number, b: number) => {
    for (let k = 0; k < cols.length; k++) {
      const [l, u] = cols[k]!;
      if (l[a] !== l[b] || u[a] !== u[b]) return false;
    }
    return true;
  };
  let start = 0;
  while (start < n) {
    const hash = Math.floor(keys[start]! / shift);
    let end = start + 1;
    while (end < n && Math.floor(keys[end]! / shift) === hash) end++;
    if (end - start >= 2) {
      // Usually one block behind a hash; a collision splits the run by exact comparison.
      let pending = Array.from({ length: end - start }, (_, i) => members[keys[start + i]! % shift]!);
      while (pending.length >= 2) {
        const head = pending[0]!;
        const same: number[] = [head];
        const other: number[] = [];
        for (let i = 1; i < pending.length; i++) (sameBlock(head, pending[i]!) ? same : other).push(pending[i]!);
        if (same.length >= 2) groups.push(Uint32Array.from(same).sort());
        pending = other;
      }
    }
    start = end;
  }
  return groups;
}
