// npm run bench — the matching engine at database scale (issues 6 and 12 "Speed"): index build, bytes per
// profile, identity (moderate), kinship ranking and familial search against the floor, and 1,000 approvals
// through the search queue with the seed search rules and the hit writes to PostgreSQL.
import { SEED_ANALYSIS_GROUPS } from '../server/genetics/seed-analyses';
import { IndexSet } from '../server/matching/index-set';
import { searchIdentity } from '../server/matching/identity-search';
import { scanAnalysis } from '../server/matching/analysis-scan';
import { rankRule } from '../server/matching/familial-search';
import { scanFamily } from '../server/matching/missing-person-scan';
import { pedigreeLr, type MutationModels, type PedigreePerson } from '../server/genetics/pedigree';
import { markerTables, searchMixture } from '../server/matching/mixture-search';
import type { MixtureSetting } from '../core/schemas/mixtures';
import type { Genotype } from '../server/genetics/types';
import type { MatchRule } from '../server/matching/rule-search';
import type { ProfileIndex } from '../server/matching/profile-index';
import type { MatchAnalysis, MatchPopulation } from '../server/matching/types';
import { BENCH_POPULATIONS, runApprovalBench } from './approval-bench';
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ImportBenchResult } from './import-bench';
import type { ScaleBenchResult } from './scale-bench';
import type { ServerBenchResult } from './server-bench';
import { runSelfComparisonBench } from './self-comparison-bench';
import { runMixtureCalculatorBench } from './mixture-calculator-bench';
import { SimdFloor } from './simd-floor';
import { SearchPool } from '../server/search/search-pool';
import { toWireAnalysis, toWireRule } from '../server/search/search-wire';
import { closeWorkerPools } from '../server/jobs/worker-pool';
import type { RuleMatch } from '../server/matching/rule-search';
import type { IdentityCandidate } from '../server/matching/types';
import type { AnalysisMatch } from '../server/matching/analysis-scan';
import { CODIS_CORE, fbi2015Population, nist1036Population, profileGenerator, seededRandom, siblingOf } from './synthetic-profiles';

/** Which tables to run (BENCH_ONLY=index,approvals,imports,scale,selfcompare,server); all by default. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'index,approvals,imports,scale,selfcompare,server').split(','));
const SIZES = (process.env.BENCH_SIZES ?? "100000,1000000").split(",").map(Number);
const QUERIES = 41;
const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 1000);
const CHEMISTRY = 'bench-chemistry';

const population = fbi2015Population();
const matchPopulation: MatchPopulation = { id: 'pop', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const seeds = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const asMatch = (name: string): MatchAnalysis => {
  const a = seeds.find((s) => s.name === name)!;
  return { id: name, kind: a.kind as MatchAnalysis['kind'], profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const fullSiblings = asMatch('Full siblings');
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

const time = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
/** A time as the tables print it; a figure not measured (no health probe landed in a short scenario: null in the result) as –. */
const ms = (x: number | null) => (x === null || !Number.isFinite(x) ? '–' : `${x.toFixed(1)} ms`);

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

/** Live bytes of this process (heap and buffers) after full collections: what the index really costs. */
// Turned on here rather than by `node --expose-gc`: worker threads (the self-comparison's) refuse that flag.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  // SharedArrayBuffers (the index's, issue 29) are in `arrayBuffers` but not in `external`; an ordinary ArrayBuffer is in
  // both, counted twice, but the index holds none, so a difference of two readings is the index's bytes.
  return m.heapUsed + m.external + m.arrayBuffers;
}

/** Profile ids as the database gives them: UUIDs. */
const benchId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

// Issue 16 "Speed": a missing-person family of three typed relatives (father, mother, full sister) searched against
// the whole index, and one pedigree LR of eight persons over the 20 markers, both with stepwise mutation.
const STEPWISE: MutationModels = { female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 }, male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 } };
const FAMILY: PedigreePerson[] = [
  { id: 'father', sex: 'male' },
  { id: 'mother', sex: 'female' },
  { id: 'sister', sex: 'female', father: 'father', mother: 'mother' },
  { id: 'MP', sex: 'male', father: 'father', mother: 'mother' },
];
const FAMILY_QUERIES = 10;
/** Parents of a profile (each gives it one allele and has one more from the population) and a full sister. */
function familyOf(person: ReadonlyMap<string, Genotype>, seed: number): Map<string, Map<string, Genotype>> {
  const random = seededRandom(seed);
  const [fatherOther, motherOther] = [profileGenerator(population, seed + 1)(), profileGenerator(population, seed + 2)()];
  const sorted = (a: string, b: string): Genotype => (a === b ? [a] : [a, b].sort((x, y) => Number(x) - Number(y)));
  const pick = (g: Genotype) => g[random() < 0.5 ? 0 : g.length - 1]!;
  const father = new Map<string, Genotype>();
  const mother = new Map<string, Genotype>();
  const sister = new Map<string, Genotype>();
  for (const [marker, g] of person) {
    father.set(marker, sorted(g[0]!, pick(fatherOther.get(marker)!)));
    mother.set(marker, sorted(g[g.length - 1]!, pick(motherOther.get(marker)!)));
    sister.set(marker, sorted(pick(father.get(marker)!), pick(mother.get(marker)!)));
  }
  return new Map([['father', father], ['mother', mother], ['sister', sister]]);
}
/** Eight persons: grandparents, the father and an uncle, the mother, the missing person, a sister and the father's second wife. */
const EIGHT: PedigreePerson[] = [
  { id: 'gf', sex: 'male' },
  { id: 'gm', sex: 'female' },
  { id: 'father', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'uncle', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'mother', sex: 'female' },
  { id: 'MP', sex: 'male', father: 'father', mother: 'mother' },
  { id: 'sister', sex: 'female', father: 'father', mother: 'mother' },
  { id: 'wife', sex: 'female' },
];
const pedigreeRows: string[][] = [];

// Issue 17 "Speed": a 3-person mixture (fixed drop-out 0.1, drop-in 0.05, θ 0.01) searched against the references, and
// the per-marker tables of such a mixture on 24 markers (NIST 1036: the 20 CODIS core and four more).
const MIXTURE: MixtureSetting = { contributors: 3, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
const MIXTURE_QUERIES = 5;
/** Three contributors' alleles at each marker, every thirteenth dropped (a low-template stain). */
function stainOf(contributors: readonly ReadonlyMap<string, Genotype>[]): Map<string, Genotype> {
  let k = 0;
  return new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...(c.get(m) ?? [])]))].filter(() => k++ % 13 !== 3)]));
}
const mixtureRule: MatchRule = {
  id: 'mixture',
  name: 'Forensic mixtures (3 contributors)',
  analysis: { id: 'mixture', kind: 'Mixture', profileKind: 'Autosomal', roles: ['Evidence', 'Person of interest'], threshold: 10_000, formulae: [], constants: {}, mixture: MIXTURE },
  stringency: null,
  minMarkers: 8,
  maxMismatches: 0,
  threshold: { kind: 'likelihood-ratio', value: null },
  searchedSampleTypes: ['Convicted Offender'],
  populations: [{ id: 'Caucasian', name: 'Caucasian', synthetic: false, kind: 'Autosomal', frequencies: population, haplotypes: [] }],
};
/** Builds the 24 markers' tables of a 3-person stain and fills them for every genotype of the population's alleles, as a scan's plan does. */
function mixtureTableBuild(seed: number): number {
  const nist = nist1036Population(24);
  const generate = profileGenerator(nist, seed);
  const stain = stainOf([generate(), generate(), generate()]);
  return time(() => {
    const tables = markerTables({ setting: MIXTURE, dropout: [0.1, 0.1, 0.1] }, stain, nist);
    for (const [marker, lr] of tables) {
      const alleles = [...nist.markers.get(marker)!.frequencies.keys()];
      for (let i = 0; i < alleles.length; i++) for (let j = i; j < alleles.length; j++) lr(i === j ? [alleles[i]!] : [alleles[i]!, alleles[j]!]);
    }
  });
}
const mixtureRows: string[][] = [];

// Issue 29 "Using every core": one search split over the search workers by slices of the index (the server's pool,
// over the index's shared memory), 1 and 2 threads, against the SIMD floor; every answer checked equal to the 1-thread one.
const threadRows: string[][] = [];
const timeAsync = async (f: () => Promise<unknown>) => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};
async function threadTable(n: number, set: IndexSet, planted: readonly ReadonlyMap<string, Genotype>[], floor: number): Promise<void> {
  const options = { stringency: 'moderate' as const, minMarkers: 10, maxMismatches: 0 };
  const perIndex = <T>(parts: T[][][]) => parts[0]!.map((_, i) => parts.flatMap((p) => p[i]!));
  const smallest = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? 0));
  const byLr = (parts: RuleMatch[][]) => parts.flat().sort((a, b) => smallest(b) - smallest(a));
  const kinshipOf = (query: ReadonlyMap<string, Genotype>, i: number) => ({ analysis: toWireAnalysis(fullSiblings), query: siblingOf(query, population, i), queryRole: 0 as const, population: matchPopulation, minMarkers: 6 });
  const stains = Array.from({ length: MIXTURE_QUERIES }, (_, i) => ({ id: `STAIN${i}`, kind: 'Autosomal' as const, chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: stainOf(planted.slice(3 * i, 3 * i + 3)) }));
  const baseline: { identity: string; kinship: string; mixture: string } = { identity: '', kinship: '', mixture: '' };
  let one: number[] = [];
  for (const threads of [1, 2]) {
    const pool = new SearchPool(threads);
    const run = <T, R>(task: Parameters<SearchPool['run']>[2], merge: (parts: T[]) => R) => pool.runParts<T, R>(set, 'Autosomal', task, threads, merge);
    // Every kind five times untimed: the workers start, and each thread's compiler reaches the optimized scans a server's
    // long-lived workers run (a fresh thread's first few searches take up to twice as long).
    for (let round = 0; round < 5; round++) {
      await run({ task: 'identity', kind: 'Autosomal', query: planted[round]!, options }, perIndex<IdentityCandidate>);
      await run({ task: 'scan', kind: 'Autosomal', request: kinshipOf(planted[round]!, round) }, perIndex<AnalysisMatch>);
      await run({ task: 'mixture-rule', rule: toWireRule(mixtureRule), profile: stains[round % stains.length]! }, byLr);
    }
    const identity: number[] = [];
    const kinship: number[] = [];
    const mixture: number[] = [];
    const answers = { identity: [] as unknown[], kinship: [] as unknown[], mixture: [] as unknown[] };
    for (const query of planted) identity.push(await timeAsync(async () => answers.identity.push(await run({ task: 'identity', kind: 'Autosomal', query, options }, perIndex<IdentityCandidate>))));
    for (const [i, query] of planted.slice(0, 15).entries()) kinship.push(await timeAsync(async () => answers.kinship.push(await run({ task: 'scan', kind: 'Autosomal', request: kinshipOf(query, i) }, perIndex<AnalysisMatch>))));
    for (const stain of stains) mixture.push(await timeAsync(async () => answers.mixture.push(await run({ task: 'mixture-rule', rule: toWireRule(mixtureRule), profile: stain }, byLr))));
    const medians = [percentile(identity, 0.5), percentile(kinship, 0.5), percentile(mixture, 0.5)];
    if (threads === 1) {
      one = medians;
      baseline.identity = JSON.stringify(answers.identity);
      baseline.kinship = JSON.stringify(answers.kinship);
      baseline.mixture = JSON.stringify(answers.mixture);
    }
    const same = JSON.stringify(answers.identity) === baseline.identity && JSON.stringify(answers.kinship) === baseline.kinship && JSON.stringify(answers.mixture) === baseline.mixture;
    threadRows.push([
      n.toLocaleString('en'),
      String(threads),
      ...medians.map((m, k) => `${ms(m)} (${(one[k]! / m).toFixed(2)}×; ${((m * threads) / floor).toFixed(2)}× floor per thread)`),
      same ? 'yes' : 'NO',
    ]);
  }
  await closeWorkerPools();
}

const rows: string[][] = [];
for (const n of ONLY.has('index') ? SIZES : []) {
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
  // Ids, group codes, lookups and columns, from the process: the generated input is garbage by now.
  const bytes = (liveBytes() - before) / index.size;
  const words: number[] = [];
  const copies: number[] = [];
  const simd: number[] = [];
  const simdFloor = new SimdFloor();
  simdFloor.load(index);
  for (let i = 0; i < 15; i++) {
    words.push(time(() => wordPass(index)));
    copies.push(time(() => copyPass(index)));
    simd.push(time(() => simdFloor.pass()));
  }
  const wordFloor = percentile(words, 0.5);
  const copyFloor = percentile(copies, 0.5);
  // Issue 29: the floor is the fastest plain read of the same bytes, a WebAssembly SIMD pass (the JavaScript passes beside it).
  const floor = percentile(simd, 0.5);

  const identity: number[] = [];
  let found = 0;
  for (const query of planted) identity.push(time(() => (found += searchIdentity(index, query, { stringency: 'moderate', minMarkers: 10, maxMismatches: 0 }).length)));
  const kinship: number[] = [];
  let relatives = 0;
  for (const [i, query] of planted.slice(0, 15).entries()) {
    const sibling = siblingOf(query, population, i);
    kinship.push(time(() => (relatives += scanAnalysis(index, { analysis: fullSiblings, query: sibling, queryRole: 0, population: matchPopulation, minMarkers: 6 }).length)));
  }
  const familial: number[] = [];
  let familialTop = 0;
  for (const [i, query] of planted.slice(0, FAMILIAL_QUERIES).entries()) {
    const profile = { id: `FQ${i}`, kind: 'Autosomal' as const, chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic, Unknown', genotypes: siblingOf(query, population, 100 + i) };
    familial.push(time(() => (familialTop += rankRule(familialRule, profile, set, { limit: 50 }).candidates.length)));
  }
  const familySearch: number[] = [];
  let familyFirst = 0;
  // One family searched untimed first: a server's searches run compiled code (the pedigree tables' and the pass's).
  scanFamily(index, { persons: FAMILY, target: 'MP', relatives: familyOf(planted[FAMILY_QUERIES]!, 1500), population, models: () => STEPWISE, threshold: 1000, minMarkers: 8 });
  for (const [i, missing] of planted.slice(0, FAMILY_QUERIES).entries()) {
    const relatives = familyOf(missing, 1600 + i);
    let found: ReturnType<typeof scanFamily> = [];
    familySearch.push(time(() => (found = scanFamily(index, { persons: FAMILY, target: 'MP', relatives, population, models: () => STEPWISE, threshold: 1000, minMarkers: 8 }))));
    if (found[0]?.profileId === benchId(i * Math.floor(n / QUERIES))) familyFirst++;
  }
  // Twenty families, each LR computed once untimed first: a server's calculator is warm (compiled code, built
  // mutation matrices), and a cold first call measures the JIT, not the pedigree.
  const eightLr: number[] = [];
  const apart: PedigreePerson[] = [...EIGHT.filter((p) => p.id !== 'MP'), { id: 'MP', sex: 'male' }];
  const eightCases = planted.slice(0, 20).map((missing, i) => {
    const relatives = familyOf(missing, 1700 + i);
    return new Map([...missing.keys()].map((marker) => [marker, new Map([['uncle', relatives.get('father')!.get(marker)!], ['mother', relatives.get('mother')!.get(marker)!], ['sister', relatives.get('sister')!.get(marker)!], ['MP', missing.get(marker)!]])]));
  });
  for (const genotypes of eightCases) pedigreeLr(EIGHT, apart, genotypes, population, STEPWISE);
  for (const genotypes of eightCases) eightLr.push(time(() => pedigreeLr(EIGHT, apart, genotypes, population, STEPWISE)));
  const mixtureSearches: number[] = [];
  let contributorsFirst = 0;
  // One stain searched untimed first, as for the families: a server's searches run compiled code.
  searchMixture(mixtureRule, { id: 'STAIN-WARM', kind: 'Autosomal', chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: stainOf(planted.slice(30, 33)) }, set);
  for (let i = 0; i < MIXTURE_QUERIES; i++) {
    const contributors = planted.slice(3 * i, 3 * i + 3);
    const stain = { id: `STAIN${i}`, kind: 'Autosomal' as const, chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: stainOf(contributors) };
    let found: ReturnType<typeof searchMixture>['matches'] = [];
    mixtureSearches.push(time(() => (found = searchMixture(mixtureRule, stain, set).matches)));
    const expected = new Set(contributors.map((_, c) => benchId((3 * i + c) * Math.floor(n / QUERIES))));
    if (found.slice(0, 3).every((m) => expected.has(m.candidateId)) && found.length >= 3) contributorsFirst++;
  }
  // Each stain's tables built once untimed first (compiled code), then timed.
  mixtureTableBuild(1);
  const tableBuilds = Array.from({ length: 9 }, (_, i) => mixtureTableBuild(100 + i));
  const mixture50 = percentile(mixtureSearches, 0.5);
  mixtureRows.push([
    n.toLocaleString('en'),
    `${ms(mixture50)} / ${ms(percentile(mixtureSearches, 0.95))}`,
    `${(mixture50 / floor).toFixed(2)}×`,
    `${contributorsFirst}/${MIXTURE_QUERIES}`,
    `${ms(percentile(tableBuilds, 0.5))} / ${ms(percentile(tableBuilds, 0.95))}`,
  ]);
  if (n === SIZES[SIZES.length - 1]) await threadTable(n, set, planted, floor);
  const family50 = percentile(familySearch, 0.5);
  pedigreeRows.push([
    n.toLocaleString('en'),
    `${ms(family50)} / ${ms(percentile(familySearch, 0.95))}`,
    `${(family50 / floor).toFixed(2)}×`,
    `${familyFirst}/${FAMILY_QUERIES}`,
    `${ms(percentile(eightLr, 0.5))} / ${ms(percentile(eightLr, 0.95))}`,
  ]);
  const id50 = percentile(identity, 0.5);
  const kin50 = percentile(kinship, 0.5);
  rows.push([
    n.toLocaleString('en'),
    `${(build / 1000).toFixed(1)} s`,
    `${bytes.toFixed(1)} B`,
    `${ms(id50)} / ${ms(percentile(identity, 0.95))}`,
    ms(kin50),
    `${ms(percentile(familial, 0.5))} (${familialTop / FAMILIAL_QUERIES})`,
    `${ms(floor)} (${ms(wordFloor)} / ${ms(copyFloor)})`,
    `${(id50 / floor).toFixed(2)}×`,
    `${(kin50 / floor).toFixed(2)}×`,
    `${found}/${planted.length}, ${relatives}`,
  ]);
}

if (rows.length > 0) {
console.log(`\nFrequencies: ${population.name} (${population.source}), ${CODIS_CORE.length} CODIS core markers; ${QUERIES} identity queries (planted), 15 full-sibling queries; ${FAMILIAL_QUERIES} familial searches (full siblings, 4 populations, chance figures included)\n`);
const header = ['N', 'build', 'index/profile', 'identity moderate p50/p95', 'kinship FS p50', 'familial search (top 50) p50', 'floor: SIMD pass (JS word pass / copy)', 'identity/floor', 'kinship/floor', 'found (planted, siblings over 1000)'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
}

if (pedigreeRows.length > 0) {
  console.log(`\nPedigrees (issue 16): a family of 3 typed relatives (father, mother, full sister) searched for its missing son over the index, threshold 1000, stepwise mutation (female 0.001, male 0.003, rate2 1e-5, range 0.1); one pedigree LR of 8 persons over the ${CODIS_CORE.length} markers, same models, 20 families after one untimed round\n`);
  const header = ['N', 'family search p50/p95', 'family search/floor', 'true missing person first', 'pedigree LR (8 persons, 20 markers) p50/p95'];
  const widths = header.map((h, i) => Math.max(h.length, ...pedigreeRows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...pedigreeRows.map(line)].join('\n'));
}

if (mixtureRows.length > 0) {
  console.log(`\nMixtures (issue 17): a 3-person stain (every thirteenth allele dropped) of planted references searched over the index (after one untimed search), drop-out 0.1, drop-in 0.05, θ 0.01, LR ≥ 10,000, the hits weighed exactly with their chance figures; the per-marker tables of a 3-person stain on 24 markers (NIST 1036 Caucasian), every genotype of the population's alleles\n`);
  const header = ['N', 'mixture search p50/p95', 'mixture search/floor', 'the 3 contributors first', 'tables, 24 markers p50/p95'];
  const widths = header.map((h, i) => Math.max(h.length, ...mixtureRows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...mixtureRows.map(line)].join('\n'));
}

if (threadRows.length > 0) {
  console.log(`\nThe search workers (issue 29): one search split into as many slices of the index as threads, on the server's pool over the index's shared memory (p50; speed-up against 1 thread; time × threads against the SIMD floor); ${QUERIES} identity (moderate), 15 full-sibling kinship scans, ${MIXTURE_QUERIES} 3-person mixture searches, after five untimed runs of each\n`);
  const header = ['N', 'threads', 'identity', 'kinship FS', 'mixture search', 'same answers as 1 thread'];
  const widths = header.map((h, i) => Math.max(h.length, ...threadRows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...threadRows.map(line)].join('\n'));
}

// Issue 12 "Speed": approvals through the search queue the server runs, with the seed search rules, four
// FBI 2015 populations, the expected chance hits and the hit writes to PostgreSQL (BENCH_DATABASE_URL).
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const largest = SIZES[SIZES.length - 1]!;
if (ONLY.has('approvals')) try {
  const r = await runApprovalBench({ offenders: largest, approvals: APPROVALS, url: databaseUrl, log: (l) => console.log(l) });
  const approvalHeader = ['offenders', 'approvals', 'total', 'per approval', 'hits recorded (per approval)', 'planted second sources found', 'keyboard search with chance figure p50/p95', 'RSS'];
  const approvalRow = [
    r.offenders.toLocaleString('en'),
    r.approvals.toLocaleString('en'),
    `${r.seconds.toFixed(1)} s`,
    ms((1000 * r.seconds) / r.approvals),
    `${r.hitsRecorded} (${(r.hitsRecorded / r.approvals).toFixed(3)})`,
    `${r.plantedFound} hits for ${r.planted} planted`,
    `${ms(r.keyboardP50)} / ${ms(r.keyboardP95)}`,
    `${r.rssMiB.toFixed(0)} MiB`,
  ];
  const w2 = approvalHeader.map((h, i) => Math.max(h.length, approvalRow[i]!.length));
  const line2 = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w2[i]!)).join(' | ')} |`;
  console.log(`\nApprovals of forensic unknowns through the search queue (seed search rules, ${BENCH_POPULATIONS.length} FBI 2015 populations, hits written to PostgreSQL):\n`);
  console.log([line2(approvalHeader), `|${w2.map((x) => '-'.repeat(x + 2)).join('|')}|`, line2(approvalRow)].join('\n'));
} catch (err) {
  console.log(`\nApproval benchmark skipped: no PostgreSQL at ${databaseUrl} (${err instanceof Error ? err.message : String(err)})`);
}

// Issue 13 "Speed": 100,000 references in a generated GeneMapper long table, uploaded, parsed in the
// worker, previewed and added through the HTTP API, to PGlite and to PostgreSQL (BENCH_IMPORT_PROFILES).
const IMPORT_PROFILES = Number(process.env.BENCH_IMPORT_PROFILES ?? 100_000);
const importRows: string[][] = [];
/** One database's import run in a process of its own: its peak RSS is then the import's, not the earlier runs'. */
function importInItsOwnProcess(kind: ImportBenchResult['database'], profiles: number, url: string): ImportBenchResult {
  const run = spawnSync(process.execPath, ['--import', 'tsx', new URL('./import-bench.ts', import.meta.url).pathname, kind, String(profiles), url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`the ${kind} import run ended without a result (exit ${run.status})`);
  return JSON.parse(line.slice('RESULT '.length)) as ImportBenchResult;
}
for (const kind of ONLY.has('imports') ? (['PGlite', 'PostgreSQL'] as const) : []) {
  try {
    const r = await importInItsOwnProcess(kind, IMPORT_PROFILES, databaseUrl);
    importRows.push([
      r.database,
      r.profiles.toLocaleString('en'),
      `${r.fileMb.toFixed(1)} MB`,
      `${(r.parseMs / 1000).toFixed(1)} s`,
      `${(r.addMs / 1000).toFixed(1)} s`,
      `${(r.totalMs / 1000).toFixed(1)} s`,
      r.profilesPerSecond.toFixed(0),
      `${r.peakRssMb.toFixed(0)} MB`,
      ms(r.maxEventLoopDelayMs),
      ms(r.maxHealthMs),
      `${ms(r.listPageMs.p50)} / ${ms(r.listPageMs.p95)} / ${ms(r.listPageMs.max)} (${r.listPageMs.count})`,
    ]);
  } catch (err) {
    console.log(`\nImport benchmark on ${kind} skipped: ${err instanceof Error ? err.message : String(err)}`);
  }
}
if (importRows.length > 0) {
  const importHeader = ['database', 'profiles', 'file', 'upload + parse + preview', 'add', 'total', 'profiles/s', 'peak RSS', 'worst event-loop delay', 'worst GET /api/health', "another user's list page during the add p50 / p95 / max (pages)"];
  const w3 = importHeader.map((h, i) => Math.max(h.length, ...importRows.map((r) => r[i]!.length)));
  const line3 = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w3[i]!)).join(' | ')} |`;
  console.log(`\nImport of references (GeneMapper long table, CODIS 20, through the HTTP API; a second client polls /api/health every 250 ms; another user of the laboratory asks for the case list or the profile list every 250 ms while the add runs — target on PGlite p95 ≤ 500 ms, issue 29):\n`);
  console.log([line3(importHeader), `|${w3.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...importRows.map(line3)].join('\n'));
}
// Issue 15 "An honest benchmark": a national database through the real server — bytes per profile in the
// database, start-up until the matching index is ready, list pages and free-text search (PostgreSQL at
// BENCH_SCALE_PROFILES, 1M by default, with as many hits; PGlite at BENCH_SCALE_PGLITE, 100k).
function scaleInItsOwnProcess(kind: ScaleBenchResult['database'], profiles: number, hitCount: number, url: string): ScaleBenchResult {
  const run = spawnSync(process.execPath, ['--import', 'tsx', new URL('./scale-bench.ts', import.meta.url).pathname, kind, String(profiles), String(hitCount), url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`the ${kind} scale run ended without a result (exit ${run.status})`);
  return JSON.parse(line.slice('RESULT '.length)) as ScaleBenchResult;
}
const scaleRuns: [ScaleBenchResult['database'], number][] = [
  ['PostgreSQL', Number(process.env.BENCH_SCALE_PROFILES ?? 1_000_000)],
  ['PGlite', Number(process.env.BENCH_SCALE_PGLITE ?? 100_000)],
];
const scaleRows: string[][] = [];
for (const [kind, n] of ONLY.has('scale') ? scaleRuns : []) {
  try {
    const r = scaleInItsOwnProcess(kind, n, n, databaseUrl);
    scaleRows.push([
      r.database,
      `${r.profiles.toLocaleString('en')} / ${r.hits.toLocaleString('en')}`,
      `${r.genotypeBytes.toFixed(0)} B / ${r.profileTableBytes.toFixed(0)} B`,
      `${(r.healthMs / 1000).toFixed(1)} s / ${(r.readyMs / 1000).toFixed(1)} s`,
      `${r.readyRssMb.toFixed(0)} MB`,
      `${ms(r.profileFirstPageMs)} / ${ms(r.profileDeepPageMs)}`,
      `${ms(r.profileSearchMs)} (${r.found.profileSearch}) / ${ms(r.profileCaseSearchMs)} (${r.found.caseSearch})`,
      `${ms(r.reviewFirstPageMs)} / ${ms(r.reviewDeepPageMs)}`,
      `${ms(r.caseFirstPageMs)} / ${ms(r.caseDeepPageMs)}`,
      ms(r.reviewCountsMs),
      `${ms(r.hitFirstPageMs)} / ${ms(r.hitDeepPageMs)}`,
      `${ms(r.hitSearchMs)} (${r.found.hitSearch})`,
    ]);
  } catch (err) {
    console.log(`\nScale benchmark on ${kind} skipped: ${err instanceof Error ? err.message : String(err)}`);
  }
}
if (scaleRows.length > 0) {
  const header = ['database', 'profiles / hits', 'marker values / whole profile row (indexes incl.)', 'start-up: health / index ready', 'server RSS ready', 'profile list: first / 90% page', 'profile search: name / case (found)', 'Review list (pending profiles): first / 90% page', 'case list: first / 90% page', 'review counts', 'hit list: first / 90% page', 'hit search (found)'];
  const w = header.map((h, i) => Math.max(h.length, ...scaleRows.map((r) => r[i]!.length)));
  const l = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w[i]!)).join(' | ')} |`;
  console.log(`\nA national database through the real server (bytes from the database; start-up of server/server.ts; lists through the API, median of 5, page size 50):\n`);
  console.log([l(header), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...scaleRows.map(l)].join('\n'));
}

// Issue 29 "The server table": the real server process over HTTP (bench/server-bench.ts), each database in a process
// of its own; BENCH_SERVER_SIZES=database:profiles:hits,… (PostgreSQL 1,000,000 / 100,000 and PGlite 100,000 / 10,000 by default).
const serverRuns = (process.env.BENCH_SERVER_SIZES ?? 'PostgreSQL:1000000:100000,PGlite:100000:10000').split(',').map((s) => {
  const [kind, profiles, hitCount] = s.split(':');
  return { kind: kind === 'PGlite' ? ('PGlite' as const) : ('PostgreSQL' as const), profiles: Number(profiles), hits: Number(hitCount ?? 0) };
});
const serverResults: ServerBenchResult[] = [];
for (const run of ONLY.has('server') ? serverRuns : []) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', new URL('./server-bench.ts', import.meta.url).pathname, run.kind, String(run.profiles), String(run.hits), databaseUrl], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (line) serverResults.push(JSON.parse(line.slice('RESULT '.length)) as ServerBenchResult);
  else console.log(`\nServer benchmark on ${run.kind} (${run.profiles.toLocaleString('en')} profiles) ended without a result (exit ${child.status}): see its log above`);
}
if (serverResults.length > 0) {
  const header = ['database', 'profiles / hits', 'scenario', 'runs', 'p50', 'p95', 'max', 'server event-loop delay p99 / max', 'GET /api/health p99 / worst (probes)', 'result'];
  const rows = serverResults.flatMap((r) =>
    r.scenarios.map((s) => [
      r.database,
      `${r.profiles.toLocaleString('en')} / ${r.hits.toLocaleString('en')}`,
      s.name,
      String(s.runs),
      ms(s.p50),
      ms(s.p95),
      ms(s.max),
      `${ms(s.loopP99)} / ${ms(s.loopMax)}`,
      `${ms(s.healthP99)} / ${ms(s.healthMax)} (${s.healthProbes})`,
      s.note,
    ]),
  );
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const l = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w[i]!)).join(' | ')} |`;
  const started = serverResults.map((r) => `${r.database}: index ready ${(r.readyMs / 1000).toFixed(1)} s after start, RSS ${r.readyRssMb.toFixed(0)} MB then, ${r.endRssMb.toFixed(0)} MB at the end; search threads ${r.searchThreads}`).join('; ');
  console.log(`\nThe real server over HTTP (node server/server.ts; personal access tokens; four FBI 2015 populations uploaded through the API; page size 50; approvals timed from the first call until every search is done and its hits written; the event-loop delay measured inside the server and GET /api/health every 100 ms, both during each scenario only). ${started}:\n`);
  console.log([l(header), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...rows.map(l)].join('\n'));
}

// Issue 15 "Database self-comparison": every pair of approved profiles compared (≤ 2 differences).
if (ONLY.has('selfcompare')) {
  const sizes = (process.env.BENCH_SELF_SIZES ?? '50000,1000000').split(',').map(Number);
  await runSelfComparisonBench(sizes);
}
// Issue 30 "Mixture calculator speed": the calculator's call on a 3-person ESX17 stain with three replicates.
if (!process.env.BENCH_ONLY || ONLY.has('mixturecalc')) runMixtureCalculatorBench();
process.exit(0);