// The approval benchmark of issue 12 "Speed": 1,000 forensic unknowns approved against a database of
// offender profiles, through the search queue the server runs — the seed search rules read from
// PostgreSQL, the CODIS identity search, the analysis's figures over four FBI 2015 populations with the
// expected chance hits, and the hit writes to PostgreSQL. One approval in ten is a planted partial
// second source of an offender, so a correct run records about one hit per planted profile. Then (issue 29) forensic
// mixtures of two or three people, one in ten with an offender among them, approved through the same queue on a pool of
// search threads: the identity rules and the seed mixture rule (3 contributors, conservative Monte-Carlo drop-out) over
// the four populations, hits written.
import { eq, sql } from 'drizzle-orm';
import { freshPostgres } from '../tests/helpers/database';
import { encodeGenotype } from '../server/db/genotype-codec';
import { caseTypes, cases, chemistries, hits, markers, organizations, populationAlleles, populationMarkers, populationOrganizations, populations, profiles } from '../server/db/schema';
import { seedReferenceData } from '../server/db/seed/reference-data';
import type { Db } from '../server/db/database';
import { systemClock } from '../server/clock';
import type { Genotype, PopulationFrequencies } from '../server/genetics/types';
import { stringencyMatchProbability } from '../server/matching/chance-distribution';
import { searchIdentity } from '../server/matching/identity-search';
import { IndexSet } from '../server/matching/index-set';
import { MatchingService } from '../server/matching/matching-service';
import type { MatchPopulation } from '../server/matching/types';
import { closeWorkerPools } from '../server/jobs/worker-pool';
import { refreshProfile } from '../server/search/index-sync';
import { recordSearchHits } from '../server/search/record-search-hits';
import { SearchPool } from '../server/search/search-pool';
import { SearchQueue } from '../server/search/search-queue';
import { fbi2015Population, profileGenerator, seededRandom } from './synthetic-profiles';

export const BENCH_POPULATIONS = ['Caucasian', 'African American', 'SE Hispanic', 'Filipino'];

/** A profile id the database and the index share: the i-th of a series, as a UUID. */
const uuidOf = (series: number, i: number) => `00000000-0000-4000-8${series.toString(16).padStart(3, '0')}-${i.toString(16).padStart(12, '0')}`;

export interface ApprovalBenchResult {
  offenders: number;
  approvals: number;
  planted: number;
  seconds: number;
  hitsRecorded: number;
  plantedFound: number;
  keyboardP50: number;
  keyboardP95: number;
  rssMiB: number;
  mixtures: MixtureApprovals | null;
}

/** The forensic-mixture approvals: wall and process CPU (every thread's) until every search is done and its hits written. */
export interface MixtureApprovals {
  approvals: number;
  threads: number;
  seconds: number;
  cpuSeconds: number;
  hitsRecorded: number;
  plantedFound: number;
  planted: number;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/** The four populations' frequencies written as an upload would, shared with the organization. */
async function addPopulations(db: Db, organizationId: string, frequencies: readonly PopulationFrequencies[]): Promise<void> {
  const markerIds = new Map((await db.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.name, m.id]));
  for (const f of frequencies) {
    const [row] = await db.insert(populations).values({ name: f.name, kind: 'Autosomal', source: 'FBI 2015 (Moretti et al. 2016)', statisticsUploadedAt: new Date() }).returning();
    await db.insert(populationOrganizations).values({ populationId: row!.id, organizationId });
    await db.insert(populationMarkers).values([...f.markers].map(([m, v]) => ({ populationId: row!.id, markerId: markerIds.get(m)!, sampleSize: v.sampleSize === null ? null : Math.floor(v.sampleSize) })));
    await db.insert(populationAlleles).values([...f.markers].flatMap(([m, v]) => [...v.frequencies].map(([allele, frequency]) => ({ populationId: row!.id, markerId: markerIds.get(m)!, allele, frequency }))));
  }
}

/** Inserts `count` profile rows of a sample type with the series' ids, in one statement (their markers live in the index). */
async function insertProfiles(db: Db, series: number, count: number, place: { caseId: string; organizationId: string; chemistryId: string }, sampleType: string, status: string): Promise<void> {
  await db.execute(sql`
    insert into profiles (id, profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, reviewed_at, searched_at)
    select ('00000000-0000-4000-8' || lpad(to_hex(${series}::int), 3, '0') || '-' || lpad(to_hex(g), 12, '0'))::uuid, ${sampleType} || '-' || g,
           ${place.caseId}::uuid, ${place.organizationId}::uuid, 'Autosomal', ${place.chemistryId}::uuid, ${sampleType}::sample_type, ${status}::profile_status, now(), now()
    from generate_series(0, ${count - 1}) g`);
}

/** A partial second source: the same genotypes with a few markers dropped out. */
function partialCopy(genotypes: ReadonlyMap<string, Genotype>, random: () => number): Map<string, Genotype> {
  return new Map([...genotypes].filter(() => random() > 0.15));
}

export async function runApprovalBench(opts: { offenders: number; approvals: number; mixtures?: number; threads?: number; url: string; log?: (line: string) => void }): Promise<ApprovalBenchResult> {
  const log = opts.log ?? (() => undefined);
  // A fresh, migrated PostgreSQL database of its own, dropped again at the end.
  const database = await freshPostgres(opts.url);
  try {
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    const [org] = await db.insert(organizations).values({ name: 'Bench laboratory' }).returning();
    const [caseType] = await db.select().from(caseTypes).limit(1);
    const [caseRow] = await db.insert(cases).values({ caseNumber: 'BENCH-1', caseTypeId: caseType!.id, organizationId: org!.id }).returning();
    const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
    const place = { caseId: caseRow!.id, organizationId: org!.id, chemistryId: chemistry!.id };
    const frequencies = BENCH_POPULATIONS.map((p) => fbi2015Population(p));
    await addPopulations(db, org!.id, frequencies);

    log(`Writing ${opts.offenders.toLocaleString('en')} offender profiles to PostgreSQL and indexing them…`);
    await insertProfiles(db, 1, opts.offenders, place, 'Convicted Offender', 'approved');
    await insertProfiles(db, 2, opts.approvals, place, 'Forensic, Unknown', 'pending');
    const set = new IndexSet();
    set.index(chemistry!.id, 'Autosomal').reserve(opts.offenders + opts.approvals);
    const generate = profileGenerator(frequencies[0]!, 20_261_124);
    const offenders: Map<string, Genotype>[] = [];
    for (let i = 0; i < opts.offenders; i++) {
      const genotypes = generate();
      // Keep a sample of offenders to plant second sources from.
      if (i % 997 === 0) offenders.push(genotypes);
      set.upsert({ id: uuidOf(1, i), kind: 'Autosomal', chemistryId: chemistry!.id, organizationId: org!.id, sampleType: 'Convicted Offender', genotypes });
    }

    // The approvals' own marker values go to the database: the queue reads an approved profile from there.
    const random = seededRandom(4242);
    const fresh = profileGenerator(frequencies[0]!, 99);
    const markerCodes = new Map((await db.select({ code: markers.code, name: markers.name }).from(markers)).map((m) => [m.name, m.code]));
    const unknowns: Map<string, Genotype>[] = [];
    let planted = 0;
    for (let j = 0; j < opts.approvals; j++) {
      const plant = j % 10 === 0;
      if (plant) planted++;
      unknowns.push(plant ? partialCopy(offenders[Math.floor(random() * offenders.length)]!, random) : fresh());
    }
    for (let j = 0; j < opts.approvals; j++) {
      const genotype = encodeGenotype([...unknowns[j]!].map(([marker, alleles]) => ({ code: markerCodes.get(marker)!, alleles })));
      await db.update(profiles).set({ genotype: Buffer.from(genotype) }).where(eq(profiles.id, uuidOf(2, j)));
    }

    // Keyboard search at this size (engine): the identity scan and the chance-hit figure over the four populations.
    const matchPopulations: MatchPopulation[] = frequencies.map((f, i) => ({ id: `p${i}`, kind: 'Autosomal', frequencies: f, haplotypes: [] }));
    const keyboard: number[] = [];
    const options = { stringency: 'moderate' as const, minMarkers: 8, maxMismatches: 0 };
    for (const query of unknowns.slice(0, 41)) {
      const t0 = performance.now();
      for (const index of set.indexes('Autosomal')) searchIdentity(index, query, options);
      for (const p of matchPopulations) stringencyMatchProbability(options.stringency, query, p, options);
      keyboard.push(performance.now() - t0);
    }

    const service = new MatchingService(set);
    const queue = new SearchQueue({ db, clock: systemClock, matching: service, record: recordSearchHits(db) });
    log(`Approving ${opts.approvals.toLocaleString('en')} forensic unknowns (one in ten a planted partial second source)…`);
    const t0 = performance.now();
    for (let j = 0; j < opts.approvals; j++) {
      const id = uuidOf(2, j);
      await db.update(profiles).set({ status: 'approved', reviewedAt: new Date(), searchedAt: null }).where(eq(profiles.id, id));
      await refreshProfile(db, service, id);
      queue.enqueue({ id, profileId: `Forensic, Unknown-${j}`, organizationId: org!.id });
      // The queue runs one search at a time beside the approvals, as in the server.
      if (j % 50 === 49) await queue.idle();
    }
    await queue.idle();
    const seconds = (performance.now() - t0) / 1000;
    const recorded = await db.select({ id: hits.id, profileSet: hits.profileSet }).from(hits);
    const plantedIds = new Set(Array.from({ length: opts.approvals }, (_, j) => j).filter((j) => j % 10 === 0).map((j) => uuidOf(2, j)));
    const plantedFound = recorded.filter((h) => h.profileSet.split(',').some((id) => plantedIds.has(id))).length;
    const failed = queue.list(null).filter((j) => j.status === 'failed');
    if (failed.length > 0) throw new Error(`${failed.length} searches failed: ${failed[0]!.error}`);
    const mixtures = (opts.mixtures ?? 0) > 0 ? await approveMixtures(db, service, place, { count: opts.mixtures!, threads: opts.threads ?? 2, offenders, markerCodes, frequencies, hitsBefore: recorded.length, log }) : null;
    return {
      offenders: opts.offenders,
      approvals: opts.approvals,
      planted,
      seconds,
      hitsRecorded: recorded.length,
      plantedFound,
      keyboardP50: percentile(keyboard, 0.5),
      keyboardP95: percentile(keyboard, 0.95),
      rssMiB: process.memoryUsage().rss / 2 ** 20,
      mixtures,
    };
  } finally {
    await database.close();
  }
}

/** A stain of these people: every allele of theirs at each marker, each dropped out with probability `dropout`. */
function mixtureOf(people: readonly ReadonlyMap<string, Genotype>[], random: () => number, dropout: number): Map<string, Genotype> {
  const stain = new Map<string, Genotype>();
  for (const marker of people[0]!.keys()) {
    const alleles = [...new Set(people.flatMap((p) => [...(p.get(marker) ?? [])]))].filter(() => random() >= dropout);
    if (alleles.length > 0) stain.set(marker, alleles);
  }
  return stain;
}

/**
 * Approves `count` forensic mixtures (two or three people, a fifth of the alleles dropped out; one in ten with a sampled
 * offender among them) through the search queue on a pool of `threads` search threads, as the server runs them.
 */
async function approveMixtures(
  db: Db,
  service: MatchingService,
  place: { caseId: string; organizationId: string; chemistryId: string },
  opts: { count: number; threads: number; offenders: readonly Map<string, Genotype>[]; markerCodes: Map<string, number>; frequencies: readonly PopulationFrequencies[]; hitsBefore: number; log: (line: string) => void },
): Promise<MixtureApprovals> {
  await insertProfiles(db, 3, opts.count, place, 'Forensic Mixture', 'pending');
  const random = seededRandom(2929);
  const fresh = profileGenerator(opts.frequencies[1]!, 2929);
  let planted = 0;
  for (let j = 0; j < opts.count; j++) {
    const people = Array.from({ length: 2 + (j % 2) }, fresh);
    if (j % 10 === 0) {
      planted++;
      people[0] = opts.offenders[Math.floor(random() * opts.offenders.length)]!;
    }
    const genotype = encodeGenotype([...mixtureOf(people, random, 0.2)].map(([marker, alleles]) => ({ code: opts.markerCodes.get(marker)!, alleles })));
    await db.update(profiles).set({ genotype: Buffer.from(genotype) }).where(eq(profiles.id, uuidOf(3, j)));
  }
  // No threads: the searches run here, one at a time (a profile of them sees every search).
  const pool = opts.threads > 0 ? new SearchPool(opts.threads) : undefined;
  const queue = new SearchQueue({ db, clock: systemClock, matching: service, record: recordSearchHits(db), ...(pool ? { pool } : {}) });
  opts.log(`Approving ${opts.count.toLocaleString('en')} forensic mixtures on ${opts.threads} search threads (one in ten with an offender among its contributors)…`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    for (let j = 0; j < opts.count; j++) {
      const id = uuidOf(3, j);
      await db.update(profiles).set({ status: 'approved', reviewedAt: new Date(), searchedAt: null }).where(eq(profiles.id, id));
      await refreshProfile(db, service, id);
      queue.enqueue({ id, profileId: `Forensic Mixture-${j}`, organizationId: place.organizationId });
      if (j % 50 === 49) await queue.idle();
    }
    await queue.idle();
  } finally {
    await closeWorkerPools();
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const failed = queue.list(null).filter((j) => j.status === 'failed');
  if (failed.length > 0) throw new Error(`${failed.length} mixture searches failed: ${failed[0]!.error}`);
  const recorded = await db.select({ profileSet: hits.profileSet }).from(hits);
  const plantedIds = new Set(Array.from({ length: opts.count }, (_, j) => j).filter((j) => j % 10 === 0).map((j) => uuidOf(3, j)));
  const plantedFound = recorded.filter((h) => h.profileSet.split(',').some((id) => plantedIds.has(id))).length;
  return { approvals: opts.count, threads: opts.threads, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, hitsRecorded: recorded.length - opts.hitsBefore, plantedFound, planted };
}
