// The national level's table of `npm run bench` (issue 32 "Speed"): a synthetic index of 25,000,000 profiles built in
// memory on this machine, its bytes per profile, the search workers' identity, kinship and mixture searches on 1 and 2
// threads (the thread table's searches, bench/thread-table.ts), and the projection to a 32-core server from the
// scaling measured here.
import type { Genotype } from '../server/genetics/types';
import { IndexSet } from '../server/matching/index-set';
import type { ProfileIndex } from '../server/matching/profile-index';
import { ms, percentile, printTable, time } from './bench-table';
import { benchId, CHEMISTRY, population, QUERIES } from './engine-fixtures';
import { liveBytes } from './live-bytes';
import { SimdFloor } from './simd-floor';
import { floorCell, measureThreads, THREAD_SEARCHES } from './thread-table';

/** Profiles whose columns are generated at once: two byte chunks per marker, copied into the index's columns with one `set`. */
const CHUNK = 1 << 16;
/** A draw is 16 random bits: each marker's alleles get 65,536 slots by frequency (the rarest FBI 2015 allele is ≥ 1/65,536). */
const DRAW = 1 << 16;
/** Threads of the projected server. */
const SERVER_CORES = 32;
/**
 * A 32-core server's memory bandwidth, stated, not measured: 8 channels of DDR4-3200 give 204.8 GB/s at most, about
 * 150 GB/s sustained. No search can read the columns faster than this, whatever its cores.
 */
const SERVER_BANDWIDTH = 150e9;

/** Per marker, the dictionary code of the allele each 16-bit draw stands for (cumulative frequencies, FBI 2015 order). */
function drawTables(index: ProfileIndex): { column: ReturnType<ProfileIndex['markerColumns']>[number]; codes: Uint8Array }[] {
  return [...population.markers].map(([marker, f]) => {
    const column = index.column(marker)!;
    const alleles = [...f.frequencies.keys()];
    const total = [...f.frequencies.values()].reduce((a, b) => a + b, 0);
    const codes = new Uint8Array(DRAW);
    let running = 0;
    let a = 0;
    const cumulative = [...f.frequencies.values()].map((p) => (running += p / total));
    for (let u = 0; u < DRAW; u++) {
      while (a < alleles.length - 1 && (u + 0.5) / DRAW >= cumulative[a]!) a++;
      codes[u] = column.indexOf.get(alleles[a]!)!;
    }
    return { column, codes };
  });
}

/**
 * A national index of `n` profiles, built fast: the first few profiles through the server's upsert, between them
 * holding every allele of the population (so every dictionary is complete), then every other profile appended with
 * its id and group and its two bytes per marker written into the columns directly, drawn by the allele frequencies
 * (Hardy–Weinberg) with xorshift32. `planted`: QUERIES profiles at even intervals, read back from the index.
 */
export function buildNational(n: number): { set: IndexSet; index: ProfileIndex; planted: ReadonlyMap<string, Genotype>[] } {
  const set = new IndexSet();
  const index = set.index(CHEMISTRY, 'Autosomal');
  index.reserve(n);
  const group = { organizationId: 'org', sampleType: 'Convicted Offender' };
  const most = Math.max(...[...population.markers.values()].map((f) => f.frequencies.size));
  const seeds = Math.ceil(most / 2);
  for (let j = 0; j < seeds; j++) {
    const genotypes = new Map([...population.markers].map(([marker, f]) => {
      const alleles = [...f.frequencies.keys()];
      const pair = [alleles[(2 * j) % alleles.length]!, alleles[(2 * j + 1) % alleles.length]!];
      return [marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
    }));
    set.upsert({ id: benchId(j), kind: 'Autosomal', chemistryId: CHEMISTRY, ...group, genotypes });
  }
  const tables = drawTables(index);
  const none = new Map<string, Genotype>();
  const lo = new Uint8Array(CHUNK);
  const hi = new Uint8Array(CHUNK);
  let x = 20_240_601;
  for (let start = seeds; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    for (let i = start; i < end; i++) index.upsert(benchId(i), none, group);
    for (const { column, codes } of tables) {
      for (let i = 0; i < end - start; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        const a = codes[x & 0xffff]!;
        const b = codes[x >>> 16]!;
        lo[i] = a < b ? a : b;
        hi[i] = a < b ? b : a;
      }
      column.lo.set(lo.subarray(0, end - start), start);
      column.hi.set(hi.subarray(0, end - start), start);
    }
  }
  const step = Math.floor((n - seeds) / QUERIES);
  const planted = Array.from({ length: QUERIES }, (_, k) => index.genotypesOf(benchId(seeds + k * step))!);
  return { set, index, planted };
}

/** A time and its speed-up against 1 thread. */
const against = (t: number, speedUp: number) => `${ms(t)} (${speedUp.toFixed(2)}×)`;

/** Issue 32 "Speed": the national index built, measured and searched on the pool; the projection to a 32-core server. */
export async function runNationalTable(n: number): Promise<void> {
  const started = performance.now();
  const before = liveBytes();
  let built!: ReturnType<typeof buildNational>;
  const build = time(() => (built = buildNational(n)));
  const { set, index, planted } = built;
  // The columns' WebAssembly memory is not in the process's figures (engine-table.ts measures the same way).
  const bytes = (liveBytes() - before + index.memoryBytes()) / n;
  const floor = new SimdFloor();
  floor.load(index);
  const floorMs = percentile(Array.from({ length: 5 }, () => time(() => floor.pass())), 0.5);
  const { measured, floor: passes } = await measureThreads(set, planted, floor);
  const [one, two] = measured;
  const columnBytes = 2 * index.markerColumns().length * n;
  printTable(
    `\nA national level (issue 32): ${n.toLocaleString('en')} synthetic profiles (FBI 2015 Caucasian, ${index.markerColumns().length} CODIS core markers, UUID ids) built in memory, bytes per profile from the process (columns' memory included), the SIMD floor over the columns; the thread table's searches (${THREAD_SEARCHES.identity} identity moderate, ${THREAD_SEARCHES.kinship} full-sibling kinship, ${THREAD_SEARCHES.mixture} three-person mixture searches, after the thread table's untimed rounds; p50) split over the pool's 1 and 2 threads, then as the approval queue runs them (the thread table's rules, each thread's share of a round as one task), as many at a time as threads (time per search), speed-up against 1 thread (the median of side-by-side pairs, as in the thread table), beside the SIMD floor's passes on one thread, two at a time and split in halves over two\n`,
    ['N', 'build', 'index/profile', 'floor', 'threads', 'identity', 'kinship FS', 'mixture search', 'SIMD floor pass', 'same answers as 1 thread'],
    [
      ...measured.map(({ threads, medians, splitSpeedUp, same }) => [n.toLocaleString('en'), `${(build / 1000).toFixed(1)} s`, `${bytes.toFixed(1)} B`, ms(floorMs), `${threads}, one search split`, ...medians.map((m, k) => against(m, splitSpeedUp[k]!)), floorCell(passes, threads, true), same ? 'yes' : 'NO']),
      // The approval queue's way: its rules, whole, as many at a time as threads, grouped as it groups them (wall time per search).
      ...measured.map(({ threads, throughput, wholeSpeedUp, same }) => [n.toLocaleString('en'), `${(build / 1000).toFixed(1)} s`, `${bytes.toFixed(1)} B`, ms(floorMs), `${threads}, ${threads === 1 ? 'one approval' : `${threads} approvals`} at a time`, ...throughput.map((m, k) => against(m, wholeSpeedUp[k]!)), floorCell(passes, threads, false), same ? 'yes' : 'NO']),
    ],
  );
  // Amdahl's law through the two measured points: a search of serial fraction s takes T1·(s + (1 − s)/p) on p threads,
  // so s = 2/S − 1 for the measured speed-up S at 2 (held within [0, 1]); the memory bound is one read of every column at
  // the server's bandwidth.
  const bound = columnBytes / SERVER_BANDWIDTH * 1000;
  const rows = ['identity', 'kinship FS', 'mixture search'].map((search, k) => {
    const t1 = one.medians[k]!;
    const speedUp = two.splitSpeedUp[k]!;
    const serial = Math.min(1, Math.max(0, 2 / speedUp - 1));
    const projected = t1 * (serial + (1 - serial) / SERVER_CORES);
    return [search, ms(t1), ms(two.medians[k]!), `${((speedUp / 2) * 100).toFixed(0)}%`, serial.toFixed(2), `${ms(Math.max(projected, bound))} (${(t1 / Math.max(projected, bound)).toFixed(1)}×)`];
  });
  printTable(
    `\nProjection to a ${SERVER_CORES}-core server (issue 32), from the scaling measured above: the serial fraction s of each search from its measured split speed-up S at 2 threads (Amdahl: S = 2/(1 + s)), then T${SERVER_CORES} = T1·(s + (1 − s)/${SERVER_CORES}), never under one read of the columns (${(columnBytes / 1e9).toFixed(2)} GB) at a stated ${SERVER_BANDWIDTH / 1e9} GB/s (${ms(bound)}); per-thread speed as on this machine. The whole table took ${((performance.now() - started) / 60_000).toFixed(1)} min\n`,
    ['search', '1 thread', '2 threads', 'parallel efficiency at 2', 'serial fraction s', `${SERVER_CORES} threads projected (speed-up)`],
    rows,
  );
}
