// The continuous (gamma) model's speed (issue 31 "Speed"): EuroForMix's 3-person ESX17 stain (stain80, stain51 and
// stain68 as three replicates, heights from the file) over the Norwegian ESX17 frequencies, the ESX17 kit's fragment
// sizes, degradation and both stutters, AT 50, drop-in 0.05 (λ 0.01), θ 0.01. Hp: ref1, ref2 and one unknown; Hd:
// ref2 and two unknowns (ref1 a typed non-contributor). Targets: a fixed-parameter likelihood of Hd ≤ 50 ms; the
// full fit of both hypotheses ≤ 2 s. CPU time of this process (process.cpuUsage), not wall time: the bench
// machine is shared. Files from the shared data folder (BENCH_DATA, or ../shared/data), never copied.
// Run alone: `npx tsx bench/continuous-bench.ts`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { logLikelihood, prepareEvidence, prepareHypothesis } from '../server/genetics/continuous/continuous-likelihood';
import { continuousLr, type ContinuousCase } from '../server/genetics/continuous/continuous-lr';
import { searchContributors } from '../server/genetics/continuous/contributor-search';
import type { ContinuousEvidence, GammaParameters, TypedPerson } from '../server/genetics/continuous/continuous-types';
import type { PopulationFrequencies } from '../server/genetics/types';

const DATA = path.resolve(process.env.BENCH_DATA ?? path.join(import.meta.dirname, '../../shared/data'), 'formats');
const LIKELIHOOD_TARGET_MS = 50;
const FIT_TARGET_MS = 2000;
const SEARCH_TARGET_MS = 30_000;
const RUNS = 21;
const FIT_RUNS = 3;
/** Evaluations of the 4-unknown likelihood timed (about 0.1 s of CPU each). */
const WIDE_RUNS = 7;

const rows = (file: string, separator: string | RegExp) => readFileSync(path.join(DATA, file), 'utf8').trim().split(/\r?\n/).map((l) => l.split(separator));

/** Whether the shared data folder is there (else the tables say so and measure nothing). */
export const benchDataFound = () => existsSync(DATA);

/** A reference of ESX17_refs.csv (ref1, ref2, ref3), as the file names its markers. */
export function esx17Reference(name: string): TypedPerson {
  return new Map(rows('genemapper/ESX17_refs.csv', ',').filter((r) => r[0] === name).map((r) => [r[1]!, [...new Set(r.slice(2, 4))]]));
}

/** The bench's case: evidence, Hp and Hd persons. */
export function continuousBenchCase(): { evidence: ContinuousEvidence; ref1: TypedPerson; ref2: TypedPerson } {
  const [header, ...table] = rows('frequencies-formats/ESX17_NorwayAMEL.csv', ';');
  const markers = header!.slice(1).map((m, j) => [m, { sampleSize: null, frequencies: new Map(table.filter((r) => r[j + 1]).map((r) => [r[0]!, Number(r[j + 1])])) }] as const);
  const population: PopulationFrequencies = { name: 'Norway ESX17', minimumAlleleFrequency: 0.001, markers: new Map(markers) };
  const stains = rows('genemapper/ESX17_evids_LTDNA.csv', ';');
  const stain = (name: string) =>
    new Map(stains.filter((r) => r[0] === name).map((r) => [r[1]!, r.slice(2, 7).flatMap((allele, i) => (allele ? [{ allele, height: Number(r[7 + i]) }] : []))]));
  const kit = rows('kits/kit.txt', '\t').filter((r) => r[12] === 'ESX17');
  // The kit writes vWA where the stain writes VWA.
  const same = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();
  const size = (marker: string, allele: string) => {
    const row = kit.find((r) => same(r[1]!, marker) && r[2] === allele);
    return row ? Number(row[3]) : undefined;
  };
  const longest = (marker: string) => {
    const sizes = kit.filter((r) => same(r[1]!, marker)).map((r) => Number(r[3]));
    return sizes.length ? Math.max(...sizes) : undefined;
  };
  const evidence: ContinuousEvidence = {
    replicates: ['stain80', 'stain51', 'stain68'].map(stain),
    population,
    normalizeFrequencies: false,
    analyticalThreshold: () => 50,
    dropIn: 0.05,
    dropInLambda: 0.01,
    theta: 0.01,
    model: { degradation: true, backwardStutter: true, forwardStutter: true },
    fragmentSize: size,
    qAlleleSize: longest,
  };
  return { evidence, ref1: esx17Reference('ref1'), ref2: esx17Reference('ref2') };
}

/**
 * The bench's evidence with ref1 as the person of interest as the body of POST /api/continuous-lr (and its
 * contributor-search job): frequencies written out, the kit's fragment sizes, the bench's model and settings; cut to
 * `markers` when given.
 */
export function continuousBenchBody(markers?: readonly string[]) {
  const { evidence, ref1 } = continuousBenchCase();
  const kept = (marker: string) => !markers || markers.includes(marker);
  const frequencies = [...evidence.population.markers].filter(([marker]) => kept(marker));
  return {
    replicates: evidence.replicates.map((r) => ({ markers: [...r].filter(([marker]) => kept(marker)).map(([marker, peaks]) => ({ marker, peaks: peaks.map((p) => ({ allele: p.allele, height: p.height })) })) })),
    personOfInterest: { markers: [...ref1].filter(([marker]) => kept(marker)).map(([marker, alleles]) => ({ marker, alleles: [...alleles] })) },
    frequencies: { markers: frequencies.map(([marker, f]) => ({ marker, alleles: [...f.frequencies].map(([allele, frequency]) => ({ allele, frequency })) })) },
    fragmentSizes: frequencies.map(([marker, f]) => ({
      marker,
      alleles: [...f.frequencies.keys()].flatMap((allele) => {
        const size = evidence.fragmentSize(marker, allele);
        return size === undefined ? [] : [{ allele, size }];
      }),
      longest: evidence.qAlleleSize(marker),
    })),
    normalizeFrequencies: evidence.normalizeFrequencies,
    analyticalThreshold: 50,
    dropIn: evidence.dropIn,
    dropInLambda: evidence.dropInLambda,
    theta: evidence.theta,
    model: evidence.model,
    parameters: { mode: 'fit' as const, starts: 2, seed: 1 },
  };
}

const cpuMs = (f: () => void): number => {
  const t0 = process.cpuUsage();
  f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Times the fixed-parameter likelihood and the full fit and prints one table. */
export function runContinuousBench(): void {
  if (!benchDataFound()) {
    console.log(`\nContinuous model: ${DATA} not found (set BENCH_DATA to the shared data folder); not measured.`);
    return;
  }
  const { evidence, ref1, ref2 } = continuousBenchCase();
  const prepared = prepareEvidence(evidence);
  const roles = { contributor: (k: number) => `contributor ${k + 1}`, nonContributor: (i: number) => `non-contributor ${i + 1}` };
  const hd = prepareHypothesis(prepared, { contributors: [ref2, null, null], nonContributors: [ref1] }, roles);
  const parameters: GammaParameters = { mx: [0.5, 0.3, 0.2], mu: 1000, sigma: 0.2, beta: 0.8, xiB: 0.08, xiF: 0.02 };
  const value = logLikelihood(hd, parameters).total;
  const times = Array.from({ length: RUNS }, () => cpuMs(() => logLikelihood(hd, parameters))).sort((a, b) => a - b);
  // Four unknowns under Hd, ref1 a typed non-contributor: 1.49 million joint genotypes per evaluation, the markers
  // too large to compile summed by nested loops (nested-marker.ts); what a 4-contributor NoC model costs.
  const wide = prepareHypothesis(prepared, { contributors: [null, null, null, null], nonContributors: [ref1] }, roles);
  const wideParameters: GammaParameters = { mx: [0.4, 0.3, 0.2, 0.1], mu: 1000, sigma: 0.2, beta: 0.8, xiB: 0.08, xiF: 0.02 };
  const wideValue = logLikelihood(wide, wideParameters).total;
  const wideTimes = Array.from({ length: WIDE_RUNS }, () => cpuMs(() => logLikelihood(wide, wideParameters))).sort((a, b) => a - b);
  const wideJoint = wide.jointGenotypes.reduce((s, j) => s + j, 0);
  const c: ContinuousCase = {
    evidence,
    contributors: 3,
    personOfInterest: ref1,
    knownContributors: [ref2],
    knownNonContributors: [],
    personOfInterestTypedUnderHd: true,
    parameters: { mode: 'fit', starts: 2, seed: 1 },
    deconvolution: false,
    analyticalThreshold: 50,
    population: { id: null, name: 'Norway ESX17', minimumAlleleFrequency: 0.001 },
  };
  let result = continuousLr(c);
  const fits = Array.from({ length: FIT_RUNS }, () => cpuMs(() => (result = continuousLr(c)))).sort((a, b) => a - b);
  const evaluations = result.hypotheses.map((h) => h.fit?.evaluations ?? 0).join(' + ');
  // The number-of-contributors search over 1..4 (issue 31: ≤ 30 s), ref1 the person of interest and no known
  // contributor: four unknowns under Hd, fitted from the 3-contributor optimum. One run (about half a minute).
  let searched: ReturnType<typeof searchContributors> = [];
  const search = cpuMs(() => (searched = searchContributors({ ...c, knownContributors: [] }, [1, 4], [evidence.model])));
  const met = (ms: number, target: number) => (ms <= target ? `≤ ${target} ms: met` : `≤ ${target} ms: MISSED`);
  const header = ['computation', 'p50 CPU', 'p95/max CPU', 'value', 'target'];
  const table = [
    ['fixed-parameter likelihood, Hd (2 unknowns)', `${quantile(times, 0.5).toFixed(1)} ms`, `${quantile(times, 0.95).toFixed(1)} ms`, `log L ${value.toFixed(6)}`, met(quantile(times, 0.95), LIKELIHOOD_TARGET_MS)],
    [`likelihood, 4 unknowns (${(wideJoint / 1e6).toFixed(2)} M joint genotypes)`, `${quantile(wideTimes, 0.5).toFixed(1)} ms`, `${wideTimes.at(-1)!.toFixed(1)} ms`, `log L ${wideValue.toFixed(6)}`, 'none (informative)'],
    [`full fit Hp + Hd (2 starts, ${evaluations} evaluations)`, `${quantile(fits, 0.5).toFixed(0)} ms`, `${fits.at(-1)!.toFixed(0)} ms`, `log10 LR ${result.log10Lr?.toFixed(4)}`, met(fits.at(-1)!, FIT_TARGET_MS)],
    [`NoC search 1..4, no known contributor (${searched.length} models, best ${searched.find((m) => m.best)?.contributors})`, `${search.toFixed(0)} ms`, '(one run)', `ln L Hd of 4: ${searched[3]?.logLikelihoodHd?.toFixed(4)}`, met(search, SEARCH_TARGET_MS)],
  ];
  const w = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((x, i) => x.padEnd(w[i]!)).join(' | ')} |`;
  console.log(`\nContinuous model (issue 31): ESX17 stain80, stain51, stain68 as 3 replicates, degradation and both stutters, 3 contributors (Hp ref1 + ref2 + 1 unknown, Hd ref2 + 2 unknowns), Norway ESX17, θ 0.01; CPU time, ${RUNS} likelihoods (${WIDE_RUNS} of 4 unknowns, Hd with ref1 a non-contributor) and ${FIT_RUNS} fits after one untimed call:\n`);
  console.log([line(header), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...table.map(line)].join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) runContinuousBench();
