// The mixture calculator's call (issue 30 "Mixture calculator speed"): EuroForMix's 3-person ESX17 stain (stain80,
// stain51 and stain68 as three replicates) against ref1 over the Norwegian ESX17 frequencies, 3 contributors,
// drop-in 0.05, θ 0.01 — the whole computation of POST /api/mixture-lr and of the calculator's analyze call, per
// drop-out setting. Target: ≤ 1 s for a fixed or maximum-likelihood drop-out (the Monte Carlo runs only when the
// conservative drop-out uses it or the reader asks for both estimates).
// The files are read from the shared data folder (never copied into the repository): BENCH_DATA, or ../shared/data.
// Run alone: `npx tsx bench/mixture-calculator-bench.ts`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MixtureSetting } from '../core/schemas/mixtures';
import { weighMixture, type MixtureProfiles } from '../server/genetics/mixture/weigh-mixture';
import type { PopulationFrequencies } from '../server/genetics/types';

const DATA = path.resolve(process.env.BENCH_DATA ?? path.join(import.meta.dirname, '../../shared/data'), 'formats');
const TARGET_MS = 1000;
const RUNS = 5;

const rows = (file: string, separator: string) => readFileSync(path.join(DATA, file), 'utf8').trim().split(/\r?\n/).map((l) => l.split(separator));

function caseFiles(): { profiles: MixtureProfiles; population: PopulationFrequencies } {
  const [header, ...table] = rows('frequencies-formats/ESX17_NorwayAMEL.csv', ';');
  const markers = header!.slice(1).map((m, j) => [m, { sampleSize: null, frequencies: new Map(table.filter((r) => r[j + 1]).map((r) => [r[0]!, Number(r[j + 1])])) }] as const);
  const evidence = rows('genemapper/ESX17_evids_LTDNA.csv', ';');
  const stain = (name: string) => new Map(evidence.filter((r) => r[0] === name).map((r) => [r[1]!, r.slice(2, 7).filter(Boolean)]));
  const ref1 = new Map(rows('genemapper/ESX17_refs.csv', ',').filter((r) => r[0] === 'ref1').map((r) => [r[1]!, [...new Set(r.slice(2, 4))]]));
  return { profiles: { replicates: ['stain80', 'stain51', 'stain68'].map(stain), personOfInterest: ref1, knownContributors: [] }, population: { name: 'Norway ESX17', minimumAlleleFrequency: 0.001, markers: new Map(markers) } };
}

const RUNS_OF: { name: string; dropout: MixtureSetting['dropout']; estimateDropout: boolean; target: boolean }[] = [
  { name: 'fixed drop-out 0.1', dropout: { mode: 'fixed', values: [0.1] }, estimateDropout: false, target: true },
  { name: 'maximum-likelihood drop-out', dropout: { mode: 'estimated', estimate: 'maximum-likelihood' }, estimateDropout: false, target: true },
  { name: 'conservative drop-out (Monte Carlo under Hd)', dropout: { mode: 'estimated', estimate: 'conservative' }, estimateDropout: false, target: false },
  { name: 'fixed, both estimates asked for', dropout: { mode: 'fixed', values: [0.1] }, estimateDropout: true, target: false },
];

/** Times each drop-out setting (p50 and max of RUNS calls after one untimed call) and prints one table. */
export function runMixtureCalculatorBench(): void {
  if (!existsSync(DATA)) {
    console.log(`\nMixture calculator call: ${DATA} not found (set BENCH_DATA to the shared data folder); not measured.`);
    return;
  }
  const { profiles, population } = caseFiles();
  const header = ['drop-out', 'p50', 'max', 'LR', 'target'];
  const table = RUNS_OF.map((run) => {
    const setting: MixtureSetting = { contributors: 3, dropout: run.dropout, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
    const call = () => weighMixture(setting, profiles, population, null, { estimateDropout: run.estimateDropout });
    const lr = call().lr;
    const times = Array.from({ length: RUNS }, () => {
      const t0 = performance.now();
      call();
      return performance.now() - t0;
    }).sort((a, b) => a - b);
    const p50 = times[Math.floor(RUNS / 2)]!;
    return [run.name, `${p50.toFixed(0)} ms`, `${times.at(-1)!.toFixed(0)} ms`, lr.toExponential(3), run.target ? (times.at(-1)! <= TARGET_MS ? `≤ ${TARGET_MS} ms: met` : `≤ ${TARGET_MS} ms: MISSED`) : 'none (the Monte Carlo asked for)'];
  });
  const w = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w[i]!)).join(' | ')} |`;
  console.log(`\nMixture calculator call (issue 30): ESX17 stain80, stain51, stain68 as 3 replicates against ref1, 3 contributors, Norway ESX17, drop-in 0.05, θ 0.01; ${RUNS} calls after one untimed call:\n`);
  console.log([line(header), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...table.map(line)].join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) runMixtureCalculatorBench();
