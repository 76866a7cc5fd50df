// Storage and start-up of the packed genotypes (issue 15): N approved GlobalFiler profiles (FBI 2015
// Caucasian frequencies, ~20 markers each) written to a fresh database, then the bytes per profile
// (table, indexes, the genotype column) and the time loadMatchIndexes takes to read them all back.
// Run: node --import tsx bench/genotype-storage.ts [profiles=100000] [postgres|pglite]
import { eq, sql } from 'drizzle-orm';
import { freshPglite, freshPostgres } from '../tests/helpers/database';
import { encodeGenotype } from '../server/db/genotype-codec';
import { caseTypes, cases, chemistries, markers, organizations } from '../server/db/schema';
import { seedReferenceData } from '../server/db/seed/reference-data';
import { loadMatchIndexes } from '../server/matching/load-indexes';
import { buildApp } from '../server/app';
import { FakeVerifier, testConfig } from '../tests/helpers/app';
import { fbi2015Population, profileGenerator } from './synthetic-profiles';

const n = Number(process.argv[2] ?? 100_000);
const engine = process.argv[3] ?? 'postgres';
const database = engine === 'pglite' ? await freshPglite() : await freshPostgres(process.env.BENCH_DATABASE_URL);
const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
try {
  const { db } = database;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const [org] = await db.insert(organizations).values({ name: 'Bench laboratory' }).returning();
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const [kase] = await db.insert(cases).values({ caseNumber: 'BENCH-1', caseTypeId: caseType!.id, organizationId: org!.id }).returning();
  const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const codes = new Map((await db.select({ name: markers.name, code: markers.code }).from(markers)).map((m) => [m.name, m.code]));
  const generate = profileGenerator(fbi2015Population('Caucasian'), 15);
  let markerCount = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i += 5000) {
    const batch = Array.from({ length: Math.min(5000, n - i) }, (_, j) => {
      const genotypes = [...generate()];
      markerCount += genotypes.length;
      return { name: `CO-${String(i + j).padStart(7, '0')}`, genotype: Buffer.from(encodeGenotype(genotypes.map(([m, alleles]) => ({ code: codes.get(m)!, alleles })))).toString('hex') };
    });
    await db.execute(sql`
      insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, reviewed_at, searched_at, genotype)
      select r.name, ${kase!.id}::uuid, ${org!.id}::uuid, 'Autosomal', ${chemistry!.id}::uuid, 'Convicted Offender', 'approved', now(), now(), decode(r.genotype, 'hex')
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(name text, genotype text)`);
  }
  const writeSeconds = (performance.now() - t0) / 1000;
  await db.execute(sql`vacuum analyze profiles`);
  const [size] = rows<{ total: string; heap: string; indexes: string; toast: string; genotype: string; row: string }>(
    await db.execute(sql`
      select pg_total_relation_size('profiles') as total, pg_relation_size('profiles') as heap, pg_indexes_size('profiles') as indexes,
             pg_total_relation_size('profiles') - pg_relation_size('profiles') - pg_indexes_size('profiles') as toast,
             (select avg(pg_column_size(genotype)) from profiles) as genotype, (select avg(pg_column_size(p.*)) from profiles p) as row`),
  );
  const per = (bytes: string) => (Number(bytes) / n).toFixed(1);
  console.log(`${engine}: ${n.toLocaleString('en')} profiles, ${(markerCount / n).toFixed(1)} markers each, written in ${writeSeconds.toFixed(1)} s`);
  console.log(`bytes per profile: table+indexes ${per(size!.total)} (heap ${per(size!.heap)}, indexes ${per(size!.indexes)}, toast/fsm/vm ${per(size!.toast)}); row ${Number(size!.row).toFixed(1)}, genotype column ${Number(size!.genotype).toFixed(1)}`);
  const indexes = rows<{ name: string; bytes: string }>(await db.execute(sql`select indexrelid::regclass::text as name, pg_relation_size(indexrelid) as bytes from pg_index where indrelid = 'profiles'::regclass order by 2 desc`));
  console.log(`indexes per profile: ${indexes.map((i) => `${i.name} ${per(i.bytes)}`).join(', ')}`);
  for (let run = 1; run <= 3; run++) {
    const t1 = performance.now();
    await loadMatchIndexes(db);
    console.log(`loadMatchIndexes run ${run}: ${((performance.now() - t1) / 1000).toFixed(2)} s`);
  }
  // The server's start-up: buildApp as server.ts calls it, then GET /api/health until the index is ready.
  const t2 = performance.now();
  const app = await buildApp({ database, config: testConfig(), verifier: new FakeVerifier(), redirectToPublicUrl: false, waitForMatchIndex: false });
  await app.ready();
  const first = await app.inject({ method: 'GET', url: '/api/health' });
  const answered = (performance.now() - t2) / 1000;
  let index = first.json().index as { state: string; loaded: number; total: number };
  while (index.state !== 'ready') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    index = (await app.inject({ method: 'GET', url: '/api/health' })).json().index;
  }
  console.log(`server start-up: health answered after ${answered.toFixed(2)} s (${JSON.stringify(first.json().index)}), index ready after ${((performance.now() - t2) / 1000).toFixed(2)} s (${index.loaded.toLocaleString('en')} profiles)`);
  await app.close();
} finally {
  await database.close();
}
