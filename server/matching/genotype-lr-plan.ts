import type { Genotype } from '../genetics/types';
import type { AnalysisMatch } from './analysis-scan';
import type { FusablePlan } from './fused-scan';
import { planColumn, type ColumnPlan } from './lookup-table';
import type { MarkerColumn, ProfileIndex } from './profile-index';

/**
 * A marker's LR that depends on each allele's class only (a continuous candidate table: the allele's place in the
 * evidence, or Q): a plan asks each dictionary allele's class once and each class pair's LR once, not the LR of every
 * genotype of the dictionary by its alleles' names.
 */
export interface AlleleClasses {
  count: number;
  /** An allele's class, 0 … count − 1; −1 when every genotype holding it has LR 0. */
  classOf(allele: string): number;
  /** The LR of a genotype of classes x ≤ y, the function's value for it. */
  lrOf(x: number, y: number): number;
}

/** A marker's LR as a function of a candidate's genotype there; undefined: not compared. */
export type GenotypeLr = ((genotype: Genotype) => number | undefined) & { classes?: AlleleClasses };

/**
 * A classed column's log10 by allele class (AlleleClasses): `of[x]` allele x's class (x ≥ 1; a class whose genotypes
 * all have LR 0 is one more class), `log10[x·count + y]` the value of a genotype of classes x and y (symmetric); every
 * genotype of two typed alleles is compared. The table holds the same numbers by code; a filter and the exact weighing
 * read these k² cells rather than the n² codes.
 */
export interface ClassCells {
  of: readonly number[];
  count: number;
  log10: readonly number[];
  /** log10 of code 0 (not typed): the table's. */
  untyped: number;
}

/** A column's log10 table and which of its codes are compared (the verdict counts those markers); its classes when it has them. */
export type ComparedColumn = ColumnPlan<Float64Array> & { compared: Uint8Array; classes?: ClassCells };

/** Which profiles a plan weighs and keeps. */
export interface GenotypeLrPlanOptions {
  /** log10 of the LR a profile must reach over its compared markers. */
  cut: number;
  minMarkers: number;
  /** Only profiles of these groups (ProfileIndex.groupMask); all when absent. */
  groups?: Uint8Array | undefined;
  /** A profile never kept (the query itself). */
  excludeId?: string | undefined;
}

/** A plan's score of any slot without decoding its id: one at a time, or a block of slots at once into the caller's arrays. */
export interface ScoredPlan {
  scoreAt(slot: number): { log10: number; markerCount: number };
  /** Slots start … end−1: log10[i − start] and markerCount[i − start], as scoreAt gives them. */
  scoreBlock(start: number, end: number, log10: Float64Array, markerCount: Int32Array): void;
  /** The `count` slots listed in `slots`: log10[i] and markerCount[i] of slots[i], as scoreAt gives them. */
  scoreSlots(slots: Int32Array, count: number, log10: Float64Array, markerCount: Int32Array): void;
}

/**
 * A search whose per-marker LR depends only on the candidate's genotype (GENETICS.md "How the search reaches memory
 * speed": a missing-person family, a mixture) as a plan of the fused pass: per column a log10 table over the genotype
 * codes and which codes are compared; the exact verdict (sum ≥ cut over at least minMarkers compared markers) for
 * any slot, `scoreAt` without decoding the profile's id, and the side list weighed one by one.
 */
export function genotypeLrPlan(index: ProfileIndex, weigh: ReadonlyMap<string, GenotypeLr>, options: GenotypeLrPlanOptions): Extract<FusablePlan, { kind: 'computational' }> & ScoredPlan & { plans: ComparedColumn[] } {
  const { cut, minMarkers, groups, excludeId } = options;
  const plans: ComparedColumn[] = [];
  const columns = index.markerColumns().filter((column) => weigh.has(column.name));
  const classed = classedColumns(columns.flatMap((column) => (weigh.get(column.name)!.classes ? [{ column, classes: weigh.get(column.name)!.classes! }] : [])));
  for (const column of columns) {
    const lr = weigh.get(column.name)!;
    if (lr.classes) {
      plans.push(classed.shift()!);
      continue;
    }
    let compared = new Uint8Array(0);
    const plan = planColumn(
      column,
      (n) => {
        compared = new Uint8Array(n);
        return new Float64Array(n);
      },
      (genotype, code) => {
        const value = lr(genotype);
        if (value === undefined) return 0;
        compared[code] = 1;
        return value > 0 ? Math.log10(value) : -Infinity;
      },
      0,
    );
    plans.push({ ...plan, compared });
  }
  const verdict = (profileId: string, log10: number, markerCount: number): AnalysisMatch | null =>
    profileId !== excludeId && log10 >= cut && markerCount >= minMarkers ? { profileId, combinedIndex: 10 ** log10, markerCount, nonExclusionMarkerCount: null } : null;
  const scoreAt = (slot: number) => {
    let log10 = 0;
    let markerCount = 0;
    for (const p of plans) {
      const code = (p.lo[slot]! << p.shift) | p.hi[slot]!;
      log10 += p.table[code]!;
      markerCount += p.compared[code]!;
    }
    return { log10, markerCount };
  };
  const scoreBlock = (start: number, end: number, log10: Float64Array, markerCount: Int32Array) => {
    log10.fill(0, 0, end - start);
    markerCount.fill(0, 0, end - start);
    // Marker by marker over the block, so each slot's sum is added in scoreAt's order (the same number, bit for bit).
    for (const { lo, hi, shift, table, compared } of plans) {
      for (let i = start, j = 0; i < end; i++, j++) {
        const code = (lo[i]! << shift) | hi[i]!;
        log10[j] = log10[j]! + table[code]!;
        markerCount[j] = markerCount[j]! + compared[code]!;
      }
    }
  };
  const scoreSlots = (slots: Int32Array, count: number, log10: Float64Array, markerCount: Int32Array) => {
    log10.fill(0, 0, count);
    markerCount.fill(0, 0, count);
    // Marker by marker, as scoreBlock: each slot's sum in scoreAt's order.
    for (const { lo, hi, shift, table, compared } of plans) {
      for (let i = 0; i < count; i++) {
        const slot = slots[i]!;
        const code = (lo[slot]! << shift) | hi[slot]!;
        log10[i] = log10[i]! + table[code]!;
        markerCount[i] = markerCount[i]! + compared[code]!;
      }
    }
  };
  return {
    kind: 'computational',
    index,
    plans,
    cut,
    scoreAt,
    scoreBlock,
    scoreSlots,
    matchAt: (slot) => {
      if (groups !== undefined && !index.slotInGroups(slot, groups)) return null;
      const { log10, markerCount } = scoreAt(slot);
      return verdict(index.idAt(slot), log10, markerCount);
    },
    // Profiles outside the columns (mixtures, overflow) are weighed one by one.
    sideMatches: () =>
      [...index.side].flatMap(([id, genotypes]) => {
        if (groups !== undefined && !index.sideInGroups(id, groups)) return [];
        const { log10, markerCount } = sideScore(weigh, genotypes);
        const match = verdict(id, log10, markerCount);
        return match ? [match] : [];
      }),
  };
}

/**
 * Columns' plans from LRs of allele classes: the tables planColumn makes from the functions (each genotype compared,
 * log10 of its LR, −∞ for 0), each class pair's log10 taken once. The tables by code are filled when first read, all at
 * once: the quantitative search's pass reads only the classes (issue 31 "Speed": filling them was a tenth of its set-up),
 * a ranked search's scores read the tables. Every table is a view of one buffer: a typed array of its own per column
 * cost more to allocate than to fill (about 3 µs each, 96 of them a search).
 */
function classedColumns(wanted: readonly { column: MarkerColumn; classes: AlleleClasses }[]): ComparedColumn[] {
  const shifts = wanted.map(({ column }) => 32 - Math.clz32(column.alleles.length - 1));
  const cellsOf = wanted.map(({ column, classes }) => {
    const n = column.alleles.length;
    // Class −1 (LR 0 with any allele) read as class k: each class pair's log10 found first, symmetric.
    const k = classes.count;
    const classOf: number[] = [k];
    for (let a = 1; a < n; a++) {
      const c = classes.classOf(column.alleles[a]!);
      classOf.push(c < 0 ? k : c);
    }
    const cells: number[] = new Array<number>((k + 1) * (k + 1)).fill(-Infinity);
    for (let x = 0; x < k; x++) {
      for (let y = x; y < k; y++) {
        const lr = classes.lrOf(x, y);
        cells[x * (k + 1) + y] = cells[y * (k + 1) + x] = lr > 0 ? Math.log10(lr) : -Infinity;
      }
    }
    return { of: classOf, count: k + 1, log10: cells, untyped: 0 };
  });
  const byCode = new ByCode(() => {
    const length = shifts.reduce((sum, shift) => sum + (1 << (2 * shift)), 0);
    const all = new Float64Array(length);
    const allCompared = new Uint8Array(length);
    const tables: Float64Array[] = [];
    const compareds: Uint8Array[] = [];
    let at = 0;
    wanted.forEach(({ column }, c) => {
      const n = column.alleles.length;
      const shift = shifts[c]!;
      const table = all.subarray(at, at + (1 << (2 * shift)));
      const compared = allCompared.subarray(at, at + table.length);
      at += table.length;
      const { of, count, log10 } = cellsOf[c]!;
      for (let lo = 1; lo < n; lo++) {
        const row = of[lo]! * count;
        for (let hi = lo; hi < n; hi++) {
          table[(lo << shift) | hi] = log10[row + of[hi]!]!;
          compared[(lo << shift) | hi] = 1;
        }
      }
      tables.push(table);
      compareds.push(compared);
    });
    return { tables, compareds };
  });
  return wanted.map(({ column }, c) => new ClassedColumn(column, shifts[c]!, cellsOf[c]!, byCode, c));
}

/** Every column's table by code of one classedColumns call, filled all at once when one is first read. */
class ByCode {
  private filled: { tables: Float64Array[]; compareds: Uint8Array[] } | undefined;
  constructor(private readonly fill: () => { tables: Float64Array[]; compareds: Uint8Array[] }) {}
  get(): { tables: Float64Array[]; compareds: Uint8Array[] } {
    return (this.filled ??= this.fill());
  }
}

/** A classed column's plan: its class cells at once, its table by code when read (a class: an object literal with getters cost ~1 µs to make). */
class ClassedColumn implements ComparedColumn {
  readonly lo: Uint8Array;
  readonly hi: Uint8Array;
  readonly alleles: number;
  constructor(
    column: MarkerColumn,
    readonly shift: number,
    readonly classes: ClassCells,
    private readonly byCode: ByCode,
    private readonly at: number,
  ) {
    this.lo = column.lo;
    this.hi = column.hi;
    this.alleles = column.alleles.length;
  }
  get table(): Float64Array {
    return this.byCode.get().tables[this.at]!;
  }
  get compared(): Uint8Array {
    return this.byCode.get().compareds[this.at]!;
  }
}

/** A side-list profile's log10 LR over its compared markers. */
export function sideScore(weigh: ReadonlyMap<string, GenotypeLr>, genotypes: ReadonlyMap<string, Genotype>): { log10: number; markerCount: number } {
  let log10 = 0;
  let markerCount = 0;
  for (const [marker, lr] of weigh) {
    const genotype = genotypes.get(marker);
    const value = genotype ? lr(genotype) : undefined;
    if (value === undefined) continue;
    markerCount++;
    log10 += value > 0 ? Math.log10(value) : -Infinity;
  }
  return { log10, markerCount };
}
