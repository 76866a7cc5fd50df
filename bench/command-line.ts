/** What the database benchmarks take from their command line: `<PostgreSQL|PGlite> <profiles> <hits> [postgres-url]`. */
export interface DatabaseBenchArgs {
  database: 'PostgreSQL' | 'PGlite';
  profiles: number;
  hits: number;
  url: string;
  log: (line: string) => void;
}

/**
 * Runs a database benchmark from its command line (one process per database, as bench/run.ts starts them): the log to
 * stderr, the result as one `RESULT {json}` line on stdout, which run.ts reads.
 */
export async function runFromCommandLine(run: (args: DatabaseBenchArgs) => Promise<unknown>): Promise<never> {
  const [kind, profiles, hits, url] = process.argv.slice(2);
  const result = await run({
    database: kind === 'PGlite' ? 'PGlite' : 'PostgreSQL',
    profiles: Number(profiles ?? 100_000),
    hits: Number(hits ?? 0),
    url: url ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    log: (l) => console.error(l),
  });
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}
