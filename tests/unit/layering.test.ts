import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-imports';

// ARCHITECTURE.md "Layering": arrows run from server/http/ down to the domain folders, db/ and genetics/,
// never back; machines/ imports nothing from src/.
const DOMAIN = ['server/hits', 'server/identity', 'server/matching', 'server/search', 'server/genetics', 'server/db', 'server/audit', 'server/imports', 'server/exports', 'server/mail', 'server/events', 'server/jobs', 'server/missing-persons', 'server/reports', 'server/network'];

describe('layering', () => {
  it.each(DOMAIN)('%s imports nothing from server/http/', (folder) => {
    const back = sourceFiles(folder).flatMap((file) => importsOf(file).filter((target) => target.startsWith('server/http/')).map((target) => `${file} → ${target}`));
    expect(back).toEqual([]);
  });

  it('machines/ imports nothing from src/', () => {
    const back = sourceFiles('machines').flatMap((file) => importsOf(file).filter((target) => target.startsWith('src/')).map((target) => `${file} → ${target}`));
    expect(back).toEqual([]);
  });
});
