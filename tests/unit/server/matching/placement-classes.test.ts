/**
 * Issue 31 "Speed": the quantitative search's filter is made from each marker's allele classes (k² cells), not from
 * its n² genotype codes (placement-classes.ts, groupClasses). It must be the filter the codes give: the class pairs it
 * reads are exactly the values the codes hold, and the classes are grouped into the categories the alleles would be.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/seeded-random';
import type { Genotype } from '../../../../server/genetics/types';
import { groupAlleles, groupClasses } from '../../../../server/matching/category-pass';
import { genotypeLrPlan, type GenotypeLr } from '../../../../server/matching/genotype-lr-plan';
import { IndexSet } from '../../../../server/matching/index-set';
import { holds, jointClasses, markerClasses } from '../../../../server/matching/placement-classes';

/** The grouping as first written, allele by allele: x joins the first representative r whose row differs by at most the tolerance at every third allele z ∉ {x, r}. */
function groupedByAlleles(n: number, matrices: readonly Uint8Array[], most: number, widest: number): Uint8Array | null {
  for (let tolerance = 0; tolerance <= widest; tolerance = Math.max(1, 2 * tolerance)) {
    const category = new Uint8Array(n);
    const representatives: number[] = [];
    let fits = true;
    for (let x = 1; x < n && fits; x++) {
      const c = representatives.findIndex((r) => matrices.every((q) => Array.from({ length: n - 1 }, (_, i) => i + 1).every((z) => z === x || z === r || Math.abs(q[x * n + z]! - q[r * n + z]!) <= tolerance)));
      if (c >= 0) category[x] = c;
      else {
        fits = representatives.length < most;
        category[x] = representatives.push(x) - 1;
      }
    }
    if (fits) return category;
  }
  return null;
}

/** A random marker: n alleles of k classes (allele 0 not typed), and per table a symmetric k × k matrix of small bounds (so tolerances group them). */
function randomClasses(random: () => number) {
  const n = 2 + Math.floor(random() * 60);
  const k = 1 + Math.floor(random() * 8);
  const of = [0, ...Array.from({ length: n - 1 }, () => Math.floor(random() * k))];
  const matrices = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
    const m = new Uint8Array(k * k);
    for (let x = 0; x < k; x++) for (let y = x; y < k; y++) m[x * k + y] = m[y * k + x] = Math.floor(random() * (random() < 0.5 ? 4 : 40));
    return m;
  });
  return { n, k, of, matrices };
}

describe('the placements filter by allele class', () => {
  it('groups classes into the categories the alleles they stand for would get, one by one', () => {
    const random = seededRandom(3101);
    let grouped = 0;
    for (let trial = 0; trial < 400; trial++) {
      const { n, k, of, matrices } = randomClasses(random);
      const most = 1 + Math.floor(random() * 5);
      // The same bounds over the alleles: q(x, z) = the classes' bound.
      const byAllele = matrices.map((m) => {
        const q = new Uint8Array(n * n);
        for (let x = 1; x < n; x++) for (let z = 1; z < n; z++) q[x * n + z] = m[of[x]! * k + of[z]!]!;
        return q;
      });
      const expected = groupedByAlleles(n, byAllele, most, 80);
      expect(groupAlleles(n, byAllele, most, 80)?.category ?? null).toEqual(expected);
      const alleles = new Array<number>(k).fill(0);
      const order: number[] = [];
      for (let x = 1; x < n; x++) {
        const c = of[x]!;
        if (alleles[c] === 0) order.push(c);
        alleles[c] = alleles[c]! + 1;
      }
      const classes = groupClasses(k, alleles, order, matrices, most, 80);
      if (expected === null) expect(classes).toBeNull();
      else {
        grouped++;
        expect(Uint8Array.from(of, (c, x) => (x === 0 ? 0 : classes!.category[c]!))).toEqual(expected);
      }
    }
    expect(grouped).toBeGreaterThan(200);
  });

  it('reads exactly the values the genotype codes hold, for classed and unclassed columns and for several placements at once', () => {
    const random = seededRandom(3102);
    const set = new IndexSet();
    const alleles = Array.from({ length: 40 }, (_, i) => String(5 + i / 2));
    for (let i = 0; i < 400; i++) {
      const pick = () => alleles[Math.floor(random() ** 2 * alleles.length)]!;
      const genotypes = new Map<string, Genotype>(['A', 'B', 'C'].map((m) => [m, [pick(), pick()].sort((a, b) => Number(a) - Number(b))]));
      set.upsert({ id: `p${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'CO', genotypes });
    }
    const index = set.indexes('Autosomal')[0]!;
    for (let trial = 0; trial < 30; trial++) {
      const tables = Array.from({ length: 3 }, (_, p) => {
        const classed = (trial + p) % 3 !== 2;
        return new Map(['A', 'B', 'C'].map((marker) => {
          const k = 1 + Math.floor(random() * 4);
          const cls = new Map(alleles.map((a) => [a, Math.floor(random() * (k + 1)) - 1]));
          const cell = Array.from({ length: k * k }, () => (random() < 0.1 ? 0 : 10 ** (random() * 4 - 2)));
          const lrOf = (x: number, y: number) => cell[Math.min(x, y) * k + Math.max(x, y)]!;
          const lr = (g: Genotype) => (cls.get(g[0]!)! < 0 || cls.get(g[1]!)! < 0 ? 0 : lrOf(cls.get(g[0]!)!, cls.get(g[1]!)!));
          const f: GenotypeLr = classed ? Object.assign(lr, { classes: { count: k, classOf: (a: string) => cls.get(a)!, lrOf } }) : lr;
          return [marker, f] as const;
        }));
      });
      const plans = tables.map((t) => genotypeLrPlan(index, t, { cut: 0, minMarkers: 0 }).plans);
      for (let m = 0; m < 3; m++) {
        const each = plans.map((ps) => markerClasses(ps[m]!));
        const { table, shift, alleles: n } = plans[0]![m]!;
        const codes = new Set<number>();
        for (let lo = 1; lo < n!; lo++) for (let hi = lo; hi < n!; hi++) codes.add(table[(lo << shift) | hi]!);
        const cells = new Set<number>();
        const c = each[0]!;
        for (const x of c.order) for (const y of c.order) if (holds(c, x, y)) cells.add(c.log10[x * c.count + y]!);
        expect([...cells].sort()).toEqual([...codes].sort());
        expect(c.untyped).toBe(table[0]);
        // The class pairs held are exactly those of the codes lo ≤ hi, in that order, for each placement's classes and for the joint ones.
        for (const k of [...each, jointClasses(each, n!)]) {
          const byCodes = new Set<string>();
          for (let lo = 1; lo < n!; lo++) for (let hi = lo; hi < n!; hi++) byCodes.add(`${k.of[lo]},${k.of[hi]}`);
          const held = new Set<string>();
          for (const x of k.order) for (const y of k.order) if (holds(k, x, y)) held.add(`${x},${y}`);
          expect([...held].sort()).toEqual([...byCodes].sort());
        }
        // Joint classes: every placement's value of a code is a function of its alleles' joint classes.
        const joint = jointClasses(each, n!);
        let unlike = 0;
        for (let lo = 1; lo < n!; lo++) {
          for (let hi = lo; hi < n!; hi++) {
            const [x, y] = [joint.first[joint.of[lo]!]!, joint.first[joint.of[hi]!]!];
            for (const ps of plans) if (!Object.is(ps[m]!.table[(lo << shift) | hi], ps[m]!.table[(Math.min(x, y) << shift) | Math.max(x, y)])) unlike++;
            if (!holds(joint, joint.of[lo]!, joint.of[hi]!)) unlike++;
          }
        }
        expect(unlike).toBe(0);
      }
    }
  });
});
