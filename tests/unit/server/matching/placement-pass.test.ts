/**
 * Issue 31 "Speed": the quantitative search bounds every placement of a reference (each unknown of Hd it may replace)
 * in one pass (placement-pass.ts, placement-kernel.ts) and weighs exactly only the references whose bound reaches a
 * cut. Its answer must be the exact one: every reference some placement of which reaches the cut, none other — on a
 * fitted stain over a few thousand references with its contributors planted, and on tables made to trip a naive bound.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { ContinuousSearchSetting } from '../../../../core/schemas/continuous';
import type { MixtureSetting } from '../../../../core/schemas/mixtures';
import { seededRandom } from '../../../../core/seeded-random';
import type { Genotype } from '../../../../server/genetics/types';
import { continuousScan, prepareContinuous, type ContinuousLane, type ContinuousStain } from '../../../../server/matching/continuous-search';
import { genotypeLrPlan, type ComparedColumn, type GenotypeLr } from '../../../../server/matching/genotype-lr-plan';
import { IndexSet } from '../../../../server/matching/index-set';
import { placementPass, type Placement, type WeighedSlots } from '../../../../server/matching/placement-pass';
import { mostAfter, type PlacementStages } from '../../../../server/matching/placement-stages';
import type { ProfileIndex } from '../../../../server/matching/profile-index';

const caucasian = fbi2015Population('Caucasian');
const MARKERS = ['D3S1358', 'vWA', 'FGA', 'D8S1179', 'D21S11', 'D18S51', 'D5S818', 'D13S317', 'D7S820', 'TH01'];
const only = (g: Map<string, Genotype>) => new Map(MARKERS.map((m) => [m, g.get(m)!]));
const SEARCHED = 'Convicted Offender';

/** An index of the planted profiles first, then `others` drawn from the Caucasian frequencies (a size not a multiple of 16). */
function indexOf(planted: readonly Map<string, Genotype>[], others: number, seed: number) {
  const set = new IndexSet();
  const generate = profileGenerator(caucasian, seed);
  const add = (id: string, genotypes: ReadonlyMap<string, Genotype>) => set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'oslo', sampleType: SEARCHED, genotypes });
  planted.forEach((g, i) => add(`planted-${i}`, g));
  for (let i = 0; i < others; i++) add(`other-${i}`, only(generate()));
  const index = set.indexes('Autosomal')[0]!;
  return { set, index, scoped: [{ index, mask: index.groupMask((g) => g.sampleType === SEARCHED) }] };
}

/**
 * Every reference of the index some placement of which reaches the cut over ≥ minMarkers markers, each weighed on its
 * own (scoreAt: the sums in the order the scan confirms with, so a reference exactly at the cut is judged alike).
 */
function exactly(index: ProfileIndex, placements: readonly ReadonlyMap<string, GenotypeLr>[], cut: number, minMarkers: number): string[] {
  const plans = placements.map((tables) => genotypeLrPlan(index, tables, { cut, minMarkers }));
  const ids: string[] = [];
  for (let slot = 0; slot < index.size; slot++) {
    if (plans.some((p) => {
      const s = p.scoreAt(slot);
      return s.log10 >= cut && s.markerCount >= minMarkers;
    })) ids.push(index.idAt(slot));
  }
  return ids.sort();
}

/**
 * The slots placementPass hands each placement at `cut`, and every one whose sum or count of compared markers handed on
 * is not scoreAt's, bit for bit (the pass weighs by the tables' allele classes when they have them, scoreAt by code).
 */
function handedAndWeighed(index: ProfileIndex, plans: readonly ReturnType<typeof genotypeLrPlan>[], cut: number): { candidates: Set<number>[]; misweighed: string[] } {
  const candidates = plans.map(() => new Set<number>());
  const misweighed: string[] = [];
  placementPass(index.size, plans.map((p) => ({ plans: p.plans, cut })), (byPlacement) =>
    byPlacement.forEach(({ slots, log10, markerCount }, j) =>
      slots.forEach((slot, i) => {
        candidates[j]!.add(slot);
        const exact = plans[j]!.scoreAt(slot);
        if (!Object.is(log10[i], exact.log10) || markerCount[i] !== exact.markerCount) misweighed.push(`${index.idAt(slot)} in placement ${j}: ${log10[i]} over ${markerCount[i]}, not ${exact.log10} over ${exact.markerCount}`);
      }),
    ),
  );
  return { candidates, misweighed };
}

/** A reference's best placement, weighed on its own. */
const bestOf = (index: ProfileIndex, placements: readonly ReadonlyMap<string, GenotypeLr>[]) => {
  const plans = placements.map((tables) => genotypeLrPlan(index, tables, { cut: 0, minMarkers: 0 }));
  return (slot: number) => Math.max(...plans.map((p) => p.scoreAt(slot).log10));
};

describe('the placements pass of the quantitative search', () => {
  it('finds exactly the references the exact per-candidate weighing keeps, on a fitted 3-person stain over 3,000 references', () => {
    const generate = profileGenerator(caucasian, 3131);
    const contributors = [only(generate()), only(generate()), only(generate())];
    let n = 0;
    // Mx 0.6, 0.3, 0.1 at μ 2000 RFU with a deterministic ±15% spread: the minor's LR is modest, so random references reach it.
    const replicate = MARKERS.map((marker) => {
      const heights = new Map<string, number>();
      contributors.forEach((c, k) => {
        for (const allele of c.get(marker)!) heights.set(allele, (heights.get(allele) ?? 0) + 2000 * [0.6, 0.3, 0.1][k]!);
      });
      return { marker, peaks: [...heights].map(([allele, h]) => ({ allele, height: Math.round(h * (1 + 0.15 * Math.sin(++n))) })) };
    });
    const stain: ContinuousStain = { replicates: [replicate], markerThresholds: new Map(), knownContributors: [], fragmentSizes: new Map() };
    const setting = { contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.1, 0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false } as MixtureSetting;
    const { lanes } = prepareContinuous(stain, setting, ContinuousSearchSetting.parse({ starts: 1 }), [{ id: 'Caucasian', name: 'Caucasian', frequencies: caucasian }]);
    expect(lanes[0]!.tables).toHaveLength(3);
    const { scoped, index } = indexOf(contributors, 3001, 31);
    const tables = lanes[0]!.tables;
    // Cuts around the answers: each contributor's own best placement (a reference exactly at the cut is kept), the
    // strongest non-contributors' and cuts many references reach.
    const best = bestOf(index, tables);
    const others = Array.from({ length: 3001 }, (_, i) => best(index.slotOf(`other-${i}`))).sort((a, b) => b - a);
    const cuts = [0, 1, 2].map((i) => best(index.slotOf(`planted-${i}`))).concat([others[0]!, others[9]!, others[99]!, 0, -2]);
    const plans = tables.map((t) => genotypeLrPlan(index, t, { cut: 0, minMarkers: 0 }));
    for (const cut of cuts) {
      const expected = exactly(index, tables, cut, 8);
      expect(continuousScan(lanes, scoped, [cut], 8, 'stain').sort(), `cut 10^${cut}`).toEqual(expected);
      // The stain's tables are classed: the candidates are weighed by class, as scoreAt weighs them by code.
      expect(handedAndWeighed(index, plans, cut).misweighed, `cut 10^${cut}`).toEqual([]);
    }
    expect(exactly(index, tables, others[99]!, 8).length).toBeGreaterThanOrEqual(100);
    // Two lanes (the same population twice, cut apart): a reference must reach each lane's own cut.
    const twice: ContinuousLane[] = [lanes[0]!, { ...lanes[0]!, populationId: 'again' }];
    expect(continuousScan(twice, scoped, [others[99]!, others[9]!], 8, 'stain').sort()).toEqual(exactly(index, tables, others[9]!, 8));
    // The plans read each class pair's LR once (AlleleClasses): the same tables, bit for bit, as the LR asked genotype by genotype.
    for (const placement of tables) {
      const byGenotype = new Map([...placement].map(([marker, lr]) => [marker, (g: Genotype) => lr(g)] as const));
      const classed: ComparedColumn[] = genotypeLrPlan(index, placement, { cut: 0, minMarkers: 0 }).plans;
      const asked: ComparedColumn[] = genotypeLrPlan(index, byGenotype, { cut: 0, minMarkers: 0 }).plans;
      const values = (plans: typeof asked) => plans.map((p) => [...p.table].map((v) => (Object.is(v, -0) ? '-0' : v)));
      expect(values(classed)).toEqual(values(asked));
      expect(classed.map((p) => [...p.compared])).toEqual(asked.map((p) => [...p.compared]));
    }
  });

  it('never drops a reference a naive bound would: sums past a byte, values under the floor, the cut met exactly, seven placements, one on fewer markers', () => {
    const random = seededRandom(2031);
    const planted = Array.from({ length: 7 }, () => only(profileGenerator(caucasian, Math.floor(random() * 1e6))()));
    const { index } = indexOf(planted, 2000, 77);
    // Per placement and marker a log10 factor per genotype: most genotypes near 0, some far under (a clamp), planted
    // reference j's genotypes strong in placement j only (seven placements: two passes of the kernel) — its sum over the markers is far past what one
    // byte holds once quantised, so a wrapping byte sum would lose it.
    const placements: Map<string, GenotypeLr>[] = Array.from({ length: 7 }, (_, j) => {
      const strong = planted[j]!;
      const draws = new Map<string, number>();
      // The last placement weighs one marker fewer (a population without it): its pass reads other columns.
      return new Map(MARKERS.slice(0, j === 6 ? -1 : undefined).map((marker) => [marker, (genotype: Genotype) => {
        const key = `${marker}:${[...genotype].sort().join('/')}`;
        if (!draws.has(key)) draws.set(key, random() < 0.1 ? -8 - 10 * random() : 0.6 * (random() - 0.7));
        const own = strong.get(marker)!;
        const same = genotype.length === own.length && genotype.every((a) => own.includes(a));
        return 10 ** (same ? 3 : draws.get(key)!);
      }] as const));
    });
    const plans = placements.map((tables) => genotypeLrPlan(index, tables, { cut: 0, minMarkers: 0 }));
    // scores[j][slot]: placement j's exact log10 sum for the reference at slot.
    const scores = plans.map((p) => Array.from({ length: index.size }, (_, slot) => p.scoreAt(slot).log10));
    const ranked = scores.flat().sort((a, b) => b - a);
    // Cuts exactly at a reference's own sum (the ⌈⌉ and the rounding slack decide it), at the strong ones', and low.
    for (const cut of [ranked[0]!, ranked[3]!, ranked[4]!, ranked[6]!, ranked[20]!, ranked[200]!, 0, -1.5]) {
      const { candidates, misweighed } = handedAndWeighed(index, plans, cut);
      expect(misweighed, `cut 10^${cut}`).toEqual([]);
      // Each placement must be handed every reference that reaches the cut in that placement.
      const lost = scores.flatMap((s, j) => s.flatMap((x, slot) => (x >= cut && !candidates[j]!.has(slot) ? [`${index.idAt(slot)} in placement ${j}`] : [])));
      expect(lost, `cut 10^${cut}`).toEqual([]);
    }
  });

  it('hands every placement the same slots, weighed alike, whatever its stages: any dense prefix, any later stages, any order of the markers', () => {
    const random = seededRandom(3131);
    const planted = Array.from({ length: 3 }, () => only(profileGenerator(caucasian, Math.floor(random() * 1e6))()));
    const { index } = indexOf(planted, 3000, 91);
    // As a stain's tables: per placement and marker a few alleles weigh up, any other down (10^−1). Planted reference 0
    // reaches placement 0 only through TH01 (10^6 there, 10^−0.9 at every other marker: under most references' best),
    // planted 1's sum in placement 1 is far past a byte once quantised, planted 2 is a little strong in placement 2
    // everywhere; one more allele a marker, drawn, weighs up a little in each placement (the other references' spread).
    const lastOnly = 'TH01';
    const placements: Map<string, GenotypeLr>[] = [0, 1, 2].map((j) => new Map(MARKERS.map((marker) => {
      const alleles = [...caucasian.markers.get(marker)!.frequencies.keys()];
      const factor = new Map(planted[j]!.get(marker)!.map((a) => [a, 10 ** (j === 0 ? (marker === lastOnly ? 3 : -0.45) : j === 1 ? 2 : 0.25)] as const));
      const drawn = alleles[Math.floor(random() * alleles.length)]!;
      if (!factor.has(drawn)) factor.set(drawn, 10 ** (0.6 * random()));
      const lr: GenotypeLr = ([a, b]) => (factor.get(a!) ?? 0.1) * (factor.get(b ?? a!) ?? 0.1);
      return [marker, lr] as const;
    })));
    const plans = placements.map((tables) => genotypeLrPlan(index, tables, { cut: 0, minMarkers: 0 }));
    const scores = plans.map((p) => Array.from({ length: index.size }, (_, slot) => p.scoreAt(slot).log10));
    const handed = (cut: readonly number[], choose?: (chosen: PlacementStages) => PlacementStages) => {
      const got: string[][] = plans.map(() => []);
      const each = (byPlacement: readonly WeighedSlots[]) => byPlacement.forEach(({ slots, log10, markerCount }, j) => slots.forEach((slot, i) => got[j]!.push(`${slot}:${log10[i]}:${markerCount[i]}`)));
      placementPass(index.size, plans.map((p, j): Placement => ({ plans: p.plans, cut: cut[j]! })), each, choose);
      return got;
    };
    const slot0 = index.slotOf('planted-0');
    // Placement 0's cut just under planted 0's sum: it reaches the cut only with TH01's 6.
    // Each placement's own cut (one every reference reaches would have every slot weighed, no stage run): at the planted
    // references' sums (planted 0's just under: it reaches it with TH01 alone), and at the 5th, 40th, 120th best sum.
    const ranked = scores.map((s) => s.filter(Number.isFinite).sort((a, b) => b - a));
    const cuts = [[0, 1, 2].map((j) => scores[j]![index.slotOf(`planted-${j}`)]! - (j === 0 ? 0.01 : 0)), ...[5, 40, 120].map((r) => ranked.map((s) => s[r]!))];
    let compared = 0;
    for (const cut of cuts) {
      const dense = handed(cut, (c) => ({ ...c, dense: c.order.length, stages: [] }));
      expect(handed(cut), `cuts ${cut.join(' ')}`).toEqual(dense);
      let chosen: PlacementStages | undefined;
      handed(cut, (c) => (chosen = c));
      // A cut every reference reaches (or none can) runs no stages.
      if (!chosen) continue;
      const markers = chosen.order.length;
      // Each marker's largest bound per placement, from the chosen most: tops[m][q] = most[q][k] − most[q][k + 1].
      const tops: number[][] = [];
      chosen.order.forEach((m, k) => (tops[m] = chosen!.most.map((row) => row[k]! - row[k + 1]!)));
      // Reordered: TH01 (the marker planted 0 needs) last, the rest reversed.
      const th01 = MARKERS.indexOf(lastOnly);
      for (const order of [chosen.order, [...chosen.order.filter((m) => m !== th01).reverse(), th01]]) {
        const most = mostAfter(order, tops, chosen.most.length);
        for (let d = 1; d <= markers; d++) {
          const later = Array.from({ length: markers - d }, (_, i) => d + 1 + i);
          for (const stages of [later, later.slice(-1), later.filter((k) => k % 3 === 0 || k === markers)]) {
            expect(handed(cut, () => ({ order, dense: d, stages, most })), `cuts ${cut.join(' ')}, dense ${d}, stages ${stages.join(' ')}, order ${order.join(' ')}`).toEqual(dense);
            compared++;
          }
        }
      }
      if (cut === cuts[0]) expect(dense[0]!.some((s) => s.startsWith(`${slot0}:`))).toBe(true);
    }
    expect(compared).toBe(4 * 2 * 10 * 3);
  });
});

