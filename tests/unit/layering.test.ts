import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md "Layering": arrows run from server/http/ down to the domain folders, db/ and genetics/,
// never back; machines/ imports nothing from src/.
const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** Every relative import of `file`, resolved to a path from the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => path.relative(root, path.resolve(path.dirname(path.join(root, file)), m[1]!)));
}

const DOMAIN = ['server/hits', 'server/identity', 'server/matching', 'server/search', 'server/genetics', 'server/db', 'server/audit', 'server/imports', 'server/exports'];

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
