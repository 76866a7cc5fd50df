import type { ClassCells, ComparedColumn } from './genotype-lr-plan';

/**
 * A marker of a placement as the pass's filter reads it (issue 31 "Speed"): the column's log10 by allele class (the
 * plan's ClassCells, or each allele its own class when it has none) and where each class's alleles 1 … n−1 lie. A code
 * lo ≤ hi (lo ≥ 1) holds the class pair (of[lo], of[hi]), so the codes' values are exactly the cells of the pairs
 * {@link holds} finds: a filter made from those k² cells is the one made from the n² codes, at a fraction of the cost
 * (a search's filter making was a fifth of a search of 1,000,000 references).
 */
export interface MarkerClasses extends ClassCells {
  /** alleles[c]: how many of alleles 1 … n−1 are of class c; first[c] and last[c] the least and the greatest (−1: none). */
  alleles: number[];
  first: number[];
  last: number[];
  /** The classes holding any allele, by their first allele. */
  order: number[];
}

/** Where the classes of `of` (alleles 1 … n−1, classes 0 … count−1) lie. */
function placed(of: readonly number[], count: number, n: number): Pick<MarkerClasses, 'alleles' | 'first' | 'last' | 'order'> {
  const alleles = new Array<number>(count).fill(0);
  const first = new Array<number>(count).fill(-1);
  const last = new Array<number>(count).fill(-1);
  const order: number[] = [];
  for (let x = 1; x < n; x++) {
    const c = of[x]!;
    if (alleles[c] === 0) {
      first[c] = x;
      order.push(c);
    }
    alleles[c] = alleles[c]! + 1;
    last[c] = x;
  }
  return { alleles, first, last, order };
}

/** A plan's marker by class: its own classes, or each allele one (its table's codes as cells). */
export function markerClasses(plan: ComparedColumn): MarkerClasses {
  const n = plan.alleles ?? 1 << plan.shift;
  const { of, count, log10, untyped } = plan.classes ?? ownClasses(plan, n);
  // Fields named, not spread: an object spread cost ~6 µs here, 48 of them a search.
  const { alleles, first, last, order } = placed(of, count, n);
  return { of, count, log10, untyped, alleles, first, last, order };
}

function ownClasses(plan: ComparedColumn, n: number): ClassCells {
  const of = Array.from({ length: n }, (_, x) => x);
  const log10 = new Array<number>(n * n).fill(0);
  for (let x = 1; x < n; x++) for (let z = x; z < n; z++) log10[x * n + z] = log10[z * n + x] = plan.table[(x << plan.shift) | z]!;
  return { of, count: n, log10, untyped: plan.table[0]! };
}

/** Whether some code lo ≤ hi (lo ≥ 1) has lo of class x and hi of class y (both holding alleles). */
export const holds = (m: Pick<MarkerClasses, 'first' | 'last'>, x: number, y: number) => x === y || m.first[x]! < m.last[y]!;

/**
 * The classes of a marker's alleles under several placements at once: allele x's joint class is that of its tuple of
 * classes (one per placement; every placement's value of a code is then a function of the joint classes of its
 * alleles); first[c] is one allele of joint class c, to read the placements' own classes off. The first placement's
 * classes themselves when every placement has the same.
 */
export function jointClasses(markers: readonly MarkerClasses[], n: number): Pick<MarkerClasses, 'of' | 'count' | 'alleles' | 'first' | 'last' | 'order'> {
  const one = markers[0]!;
  if (markers.every((m) => m.count === one.count && m.of.every((c, x) => x === 0 || c === one.of[x]))) return one;
  const ids = new Map<number, number>();
  const of = [0];
  for (let x = 1; x < n; x++) {
    let key = 0;
    for (const m of markers) key = key * m.count + m.of[x]!;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    of.push(id);
  }
  const { alleles, first, last, order } = placed(of, ids.size, n);
  return { of, count: ids.size, alleles, first, last, order };
}
