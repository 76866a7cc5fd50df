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

describe('profile import files', () => {
  /** Pairs of files of `folder` that import each other (type imports included: they still tie the two together). */
  function mutualImports(folder: string): string[] {
    const files = sourceFiles(folder);
    const imports = new Map(files.map((f) => [f, new Set(importsOf(f).map((t) => t.replace(/\.(ts|tsx)$/, '')))]));
    const strip = (f: string) => f.replace(/\.(ts|tsx)$/, '');
    return files.flatMap((a) => files.filter((b) => a < b && imports.get(a)!.has(strip(b)) && imports.get(b)!.has(strip(a))).map((b) => `${a} ↔ ${b}`));
  }

  it('src/profiles/ holds no two files that import each other (profile-import.tsx ↔ profile-types.ts)', () => {
    expect(mutualImports('src/profiles')).toEqual([]);
  });

  it('the profile import machine is split by concept into files of at most 400 lines', () => {
    const long = sourceFiles('machines')
      .filter((f) => path.basename(f).startsWith('profileImport.'))
      .map((f) => [f, readFileSync(path.join(root, f), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });
});
