// The in-process engine tables of `npm run bench` (issues 6, 12, 16, 17 and 29 "Speed"): index build, bytes per profile,
// identity (moderate), kinship ranking and familial search against the floor; then, over the same index, the pedigree,
// mixture and search-worker tables.
import { IndexSet } from '../server/matching/index-set';
import { searchIdentity } from '../server/matching/identity-search';
import { searchAnalysis } from '../server/matching/analysis-search';
import { rankRule } from '../server/matching/familial-search';
import type { ProfileIndex } from '../server/matching/profile-index';
import type { MatchRule } from '../server/matching/rule-match';
import { medianTiming, percentile, perThread, ms, printTable, time, timed, type Timing } from './bench-table';
import { benchId, CHEMISTRY, fullSiblings, matchPopulation, population, QUERIES } from './engine-fixtures';
import { mixtureRow, printMixtureTable } from './mixture-table';
import { pedigreeRow, printPedigreeTable } from './pedigree-table';
import { liveBytes } from './live-bytes';
import { SimdFloor } from './simd-floor';
import { CODIS_CORE, fbi2015Population, profileGenerator, siblingOf } from './synthetic-profiles';
import { printThreadTable, threadRows } from './thread-table';

// Familial search (issue 12): the full-sibling rule over four FBI 2015 populations, the top 50 kept.
const familialRule: MatchRule = {
  id: 'familial',
  name: 'Familial search (full siblings)',
  analysis: fullSiblings,
  stringency: null,
  minMarkers: 8,
  maxMismatches: 0,
  threshold: { kind: 'likelihood-ratio', value: null },
  searchedSampleTypes: ['Convicted Offender'],
  populations: ['Caucasian', 'African American', 'SE Hispanic', 'Filipino'].map((name) => ({ id: name, name, synthetic: false, kind: 'Autosomal' as const, frequencies: fbi2015Population(name), haplotypes: [] })),
};
const FAMILIAL_QUERIES = 5;

/**
 * The floors: the fastest plain passes over the same bytes the scans read — a sum over 32-bit words
 * (four allele indices at a time) and a plain copy of the columns. A scan cannot read its bytes faster
 * than the quicker of the two; the byte-at-a-time loop the earlier table used was 2.5× slower than either.
 */
function wordPass(index: ProfileIndex): number {
  let sum = 0;
  const n = index.size;
  const words = n >>> 2;
  for (const { lo, hi } of index.markerColumns()) {
    const a = new Uint32Array(lo.buffer, lo.byteOffset, words);
    const b = new Uint32Array(hi.buffer, hi.byteOffset, words);
    for (let i = 0; i < words; i++) sum = (sum + a[i]! + b[i]!) | 0;
    for (let i = words << 2; i < n; i++) sum = (sum + lo[i]! + hi[i]!) | 0;
  }
  return sum;
}
function copyPass(index: ProfileIndex): number {
  let sum = 0;
  const n = index.size;
  for (const { lo, hi } of index.markerColumns()) sum += lo.slice(0, n).length + hi.slice(0, n).length;
  return sum;
}

/** Every size's index built and measured; the four tables printed (the search workers' at the largest size only). */
export async function runEngineTables(sizes: readonly number[]): Promise<void> {
  const rows: string[][] = [];
  const pedigreeRows: string[][] = [];
  const mixtureRows: string[][] = [];
  const threads: string[][] = [];
  for (const n of sizes) {
    const generate = profileGenerator(population, 20_240_601);
    const planted: Map<string, readonly string[]>[] = [];
    const before = liveBytes();
    const set = new IndexSet();
    const index = set.index(CHEMISTRY, 'Autosomal');
    index.reserve(n);
    const build = time(() => {
      for (let i = 0; i < n; i++) {
        const genotypes = generate();
        if (i % Math.floor(n / QUERIES) === 0) planted.push(genotypes);
        set.upsert({ id: benchId(i), kind: 'Autosomal', chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Convicted Offender', genotypes });
      }
    });
    // Ids, group codes and lookups from the process (the generated input is garbage by now), and the columns' WebAssembly
    // memory, which the process's figures do not count (issue 29), as committed: no search has claimed working room yet.
    const bytes = (liveBytes() - before + index.memoryBytes()) / index.size;
    const words: number[] = [];
    const copies: number[] = [];
    const simd: Timing[] = [];
    const simdFloor = new SimdFloor();
    simdFloor.load(index);
    for (let i = 0; i < 15; i++) {
      words.push(time(() => wordPass(index)));
      copies.push(time(() => copyPass(index)));
      simd.push(timed(() => simdFloor.pass()));
    }
    const wordFloor = percentile(words, 0.5);
    const copyFloor = percentile(copies, 0.5);

    const identity: Timing[] = [];
    let found = 0;
    for (const query of planted) identity.push(timed(() => (found += searchIdentity(index, query, { stringency: 'moderate', minMarkers: 10, maxMismatches: 0 }).length)));
    const kinship: Timing[] = [];
    let relatives = 0;
    // One untimed full-sibling search first (of a sibling not timed), as every server search thread warms up (warm-up.ts):
    // the row measures searches, not V8 compiling the table and filter code on its first calls.
    searchAnalysis(index, { analysis: fullSiblings, query: siblingOf(planted[planted.length - 1]!, population, 1000), queryRole: 0, population: matchPopulation, minMarkers: 6 });
    for (const [i, query] of planted.slice(0, 15).entries()) {
      const sibling = siblingOf(query, population, i);
      kinship.push(timed(() => (relatives += searchAnalysis(index, { analysis: fullSiblings, query: sibling, queryRole: 0, population: matchPopulation, minMarkers: 6 }).length)));
    }
    // Issue 29: the floor is the fastest plain read of the same bytes, a WebAssembly SIMD pass (the JavaScript passes beside
    // it), timed as many times again after the searches, so a change of the machine's speed during the run weighs on both.
    for (let i = 0; i < 15; i++) simd.push(timed(() => simdFloor.pass()));
    const floor = medianTiming(simd);
    const familial: number[] = [];
    let familialTop = 0;
    for (const [i, query] of planted.slice(0, FAMILIAL_QUERIES).entries()) {
      const profile = { id: `FQ${i}`, kind: 'Autosomal' as const, chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic, Unknown', genotypes: siblingOf(query, population, 100 + i) };
      familial.push(time(() => (familialTop += rankRule(familialRule, profile, set, { limit: 50 }).candidates.length)));
    }
    const pedigree = pedigreeRow(n, index, planted, floor);
    mixtureRows.push(mixtureRow(n, set, planted, simdFloor));
    if (n === sizes[sizes.length - 1]) threads.push(...(await threadRows(n, set, planted, simdFloor)));
    pedigreeRows.push(pedigree);
    const id50 = medianTiming(identity);
    const kin50 = medianTiming(kinship);
    rows.push([
      n.toLocaleString('en'),
      `${(build / 1000).toFixed(1)} s`,
      `${bytes.toFixed(1)} B`,
      `${ms(id50.wall)} / ${ms(percentile(identity.map((t) => t.wall), 0.95))}`,
      ms(kin50.wall),
      `${ms(percentile(familial, 0.5))} (${familialTop / FAMILIAL_QUERIES})`,
      `${ms(floor.wall)} (${ms(wordFloor)} / ${ms(copyFloor)})`,
      perThread(id50, floor),
      perThread(kin50, floor),
      `${found}/${planted.length}, ${relatives}`,
    ]);
  }
  printTable(
    `\nFrequencies: ${population.name} (${population.source}), ${CODIS_CORE.length} CODIS core markers; ${QUERIES} identity queries (planted), 15 full-sibling queries; ${FAMILIAL_QUERIES} familial searches (full siblings, 4 populations, chance figures included); per thread against the floor: the ratio of median CPU times, the wall one beside it\n`,
    ['N', 'build', 'index/profile', 'identity moderate p50/p95', 'kinship FS p50', 'familial search (top 50) p50', 'floor: SIMD pass (JS word pass / copy)', 'identity/floor CPU (wall)', 'kinship/floor CPU (wall)', 'found (planted, siblings over 1000)'],
    rows,
  );
  printPedigreeTable(pedigreeRows);
  printMixtureTable(mixtureRows);
  printThreadTable(threads);
}
