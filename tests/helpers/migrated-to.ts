import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { openPglite, type Database } from '../../server/db/database';
import { freshPostgres, postgresReachable, TEST_POSTGRES_URL } from './database';

const migrations = path.resolve(import.meta.dirname, '../../server/db/migrations');

/** A database engine a migration test runs on: an empty database migrated up to (and including) a migration. */
export interface MigrationEngine {
  name: string;
  open(): Promise<Database>;
}

/** A copy of the committed migrations whose journal ends at `tag`: the database as it was before the next one. */
function migrationsUpTo(tag: string): { folder: string; remove(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'locus-migrations-'));
  cpSync(migrations, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  if (end < 0) throw new Error(`No migration ${tag}`);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * PGlite always, and PostgreSQL when one answers (a database of its own, dropped on close): each opens an empty
 * database migrated up to `tag`; `database.migrate()` then runs the migrations after it, as a server start would.
 */
export async function enginesMigratedTo(tag: string): Promise<{ engines: MigrationEngine[]; cleanup(): void }> {
  const upTo = migrationsUpTo(tag);
  const engines: MigrationEngine[] = [
    {
      name: 'PGlite',
      open: async () => {
        const database = await openPglite();
        await migratePglite(database.db as never, { migrationsFolder: upTo.folder });
        return database;
      },
    },
  ];
  if (await postgresReachable()) {
    engines.push({ name: 'PostgreSQL', open: () => freshPostgres(TEST_POSTGRES_URL, (database) => migratePg(database.db as never, { migrationsFolder: upTo.folder })) });
  }
  return { engines, cleanup: upTo.remove };
}
