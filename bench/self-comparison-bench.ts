// Database self-comparison at scale (issue 15): every pair of N approved profiles of one chemistry
// compared for duplicates and near-duplicates (≤ 2 differences, ≥ 10 equal markers), timed.
// Anchor: DNAtools dbCompare (C++) needs 287 s for 50,000 profiles on one thread on this machine.
// Profiles: 20 CODIS core markers drawn from the FBI 2015 Caucasian frequencies, 1% of them entered
// twice (0.5% identical, 0.5% with one marker changed), so the report is not empty.
// Run alone: `npx tsx bench/self-comparison-bench.ts [sizes…]` (default 50000 1000000).
import { IndexSet } from '../server/matching/index-set';
import { columnsOf, compareSelf } from '../server/matching/self-comparison';
import { fbi2015Population, profileGenerator, seededRandom } from './synthetic-profiles';

export interface SelfComparisonBenchRow {
  profiles: number;
  /** Wall time of the comparison (ms), the index already built. */
  ms: number;
  pairs: number;
  duplicates: number;
  pairsVerified: number;
  /** Planted pairs (entered twice), all of which must be found. */
  planted: number;
}

/** Builds an index of `n` profiles and times one self-comparison over it. */
export function benchSelfComparison(n: number, seed = 15): SelfComparisonBenchRow {
  const population = fbi2015Population();
  const next = profileGenerator(population, seed);
  const random = seededRandom(seed + 1);
  const set = new IndexSet();
  const index = set.index('bench', 'Autosomal');
  index.reserve(n);
  let planted = 0;
  for (let i = 0; i < n; ) {
    const g = next();
    set.upsert({ id: `p${i++}`, kind: 'Autosomal', chemistryId: 'bench', organizationId: 'org', sampleType: 'Convicted Offender', genotypes: g });
    const r = random();
    if (i < n && r < 0.01) {
      const copy = new Map(g);
      if (r < 0.005) copy.set('TH01', ['5', '10']);
      set.upsert({ id: `p${i++}`, kind: 'Autosomal', chemistryId: 'bench', organizationId: 'org', sampleType: 'Convicted Offender', genotypes: copy });
      planted++;
    }
  }
  const mask = index.groupMask((g) => g.organizationId === 'org');
  const t0 = performance.now();
  const result = compareSelf(columnsOf(index, mask));
  const ms = performance.now() - t0;
  return { profiles: n, ms, pairs: result.pairs.length, duplicates: result.pairs.filter((p) => p.kind === 'duplicate').length, pairsVerified: result.pairsVerified, planted };
}

/** Every size's row, printed as a table (the main benchmark calls this). */
export function runSelfComparisonBench(sizes: readonly number[] = [50_000, 1_000_000]): SelfComparisonBenchRow[] {
  const rows = sizes.map((n) => benchSelfComparison(n));
  console.log('\nSelf-comparison (≤ 2 differences, ≥ 10 equal markers; DNAtools dbCompare: 287 s at 50,000)');
  console.log('| profiles | time | pairs found (duplicates) | planted | pairs verified |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.profiles.toLocaleString('en')} | ${(r.ms / 1000).toFixed(2)} s | ${r.pairs} (${r.duplicates}) | ${r.planted} | ${r.pairsVerified.toLocaleString('en')} |`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  runSelfComparisonBench(sizes.length > 0 ? sizes : undefined);
}
