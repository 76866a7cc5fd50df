// What the in-memory matching index costs per profile, measured from the process (issue 15: ≤ 64 bytes
// per profile at 1M on 20 markers, ids and group codes included).
//
//   node --expose-gc --import tsx bench/index-memory.ts [profiles=1000000] [trim|reserve]
//
// Builds an IndexSet of random 20-marker autosomal profiles (FBI 2015 allele frequencies of four
// populations, UUID ids, three organizations × three sample types, two chemistries) the way the server
// builds it at start-up: profile by profile through IndexSet.upsert, then `trim` (give back the spare
// room: what a loader that does not know its counts does) or `reserve` (room for the exact counts
// first). Profiles are generated one at a time and dropped once upserted, so the "after" measurement
// holds the index and nothing of its input. Both measurements follow two full collections.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { IndexSet } from '../server/matching/index-set';
import type { MatchProfile } from '../server/matching/types';
import { fbi2015Population, profileGenerator } from './synthetic-profiles';

export interface IndexMemory {
  profiles: number;
  mode: 'trim' | 'reserve';
  /** heapUsed + external + arrayBuffers after the build, minus before, per profile. */
  bytesPerProfile: number;
  /** Resident set size after minus before, per profile (freed pages the allocator keeps count here too). */
  rssPerProfile: number;
  /** The typed arrays the indexes hold (IndexSet.indexBytes), per profile: the part the process measurement is mostly made of. */
  arrayBytesPerProfile: number;
  /** The same process measurement after one more approval (the indexes' first growth after the load). */
  bytesPerProfileAfterOneApproval: number;
  buildMs: number;
}

const CHEMISTRIES = ['GlobalFiler', 'PowerPlex Fusion'];
const SAMPLE_TYPES = ['Convicted Offender', 'Arrestee', 'Forensic Unknown'];
const POPULATIONS = ['Caucasian', 'African American', 'SE Hispanic', 'Filipino'];
/** Every tenth profile is of the second chemistry: the counts per chemistry are known in advance (for `reserve`). */
const chemistryOf = (i: number) => CHEMISTRIES[i % 10 === 0 ? 1 : 0]!;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc (node --expose-gc --import tsx bench/index-memory.ts)');
  collect();
  collect();
}

/**
 * Live bytes of the process: the JavaScript heap and memory outside it. `external` holds the ArrayBuffers but not the
 * SharedArrayBuffers the index lives in (issue 29), which `arrayBuffers` counts with the ArrayBuffers. The sum counts
 * an ordinary ArrayBuffer twice: the index holds none, so a difference of two readings is the index's bytes.
 */
function live(): { bytes: number; rss: number } {
  gc();
  const m = process.memoryUsage();
  if (process.env.INDEX_MEMORY_DEBUG) console.log(m);
  return { bytes: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}

/** Profiles one at a time, never held together. */
function* profiles(n: number, organizations: readonly string[], seed: number): Generator<MatchProfile> {
  const generators = POPULATIONS.map((name, p) => profileGenerator(fbi2015Population(name), seed + p));
  for (let i = 0; i < n; i++) {
    yield {
      id: randomUUID(),
      kind: 'Autosomal',
      chemistryId: chemistryOf(i),
      organizationId: organizations[i % organizations.length]!,
      sampleType: SAMPLE_TYPES[(i >>> 2) % SAMPLE_TYPES.length]!,
      genotypes: generators[i % generators.length]!(),
    };
  }
}

function build(set: IndexSet, n: number, organizations: readonly string[], seed: number): void {
  for (const profile of profiles(n, organizations, seed)) set.upsert(profile);
}

/** A small index built and dropped in a frame of its own (a temporary in the caller's frame could outlive the call). */
function warmUp(organizations: readonly string[], seed: number): void {
  build(new IndexSet(), 20_000, organizations, seed);
}

/** Builds an index set of `n` profiles and measures what it costs the process; needs --expose-gc. */
export function measureIndexMemory(n = 1_000_000, mode: 'trim' | 'reserve' = 'trim', seed = 20_251_124): IndexMemory {
  const organizations = [randomUUID(), randomUUID(), randomUUID()];
  // Warm-up: the code that builds an index is compiled and its caches filled before the baseline, so
  // the difference is the index's data, not the engine's compiled code.
  warmUp(organizations, seed + 100);
  const before = live();
  const started = performance.now();
  let set: IndexSet | null = new IndexSet();
  if (mode === 'reserve') {
    const second = Math.ceil(n / 10);
    set.reserve(CHEMISTRIES[0]!, 'Autosomal', n - second);
    set.reserve(CHEMISTRIES[1]!, 'Autosomal', second);
  }
  build(set, n, organizations, seed);
  if (mode === 'trim') set.trim();
  const buildMs = performance.now() - started;
  const after = live();
  if (set.profileCount !== n) throw new Error(`built ${set.profileCount} profiles, not ${n}`);
  const arrayBytes = set.indexBytes();
  // One approval more: the chemistry it joins grows (by a quarter below 65,536 slots, a sixteenth above).
  const [approval] = profiles(1, organizations, seed + 200);
  set.upsert({ ...approval!, chemistryId: CHEMISTRIES[0]! });
  const grown = live();
  set = null;
  return {
    profiles: n,
    mode,
    bytesPerProfile: (after.bytes - before.bytes) / n,
    rssPerProfile: (after.rss - before.rss) / n,
    arrayBytesPerProfile: arrayBytes / n,
    bytesPerProfileAfterOneApproval: (grown.bytes - before.bytes) / (n + 1),
    buildMs,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const mode = process.argv[3] === 'reserve' ? 'reserve' : 'trim';
  const m = measureIndexMemory(n, mode);
  const b = (x: number) => `${x.toFixed(1)} B`;
  console.log(
    [
      `Index memory, ${m.profiles.toLocaleString('en')} profiles × 20 markers (${m.mode}), built in ${(m.buildMs / 1000).toFixed(1)} s:`,
      `  process (heapUsed + external) ${b(m.bytesPerProfile)} per profile`,
      `  rss                           ${b(m.rssPerProfile)} per profile`,
      `  typed arrays                  ${b(m.arrayBytesPerProfile)} per profile`,
      `  after one more approval       ${b(m.bytesPerProfileAfterOneApproval)} per profile`,
    ].join('\n'),
  );
  console.log(JSON.stringify(m));
}
