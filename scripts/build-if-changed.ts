/**
 * Builds the SPA only when what it is built from changed since the last build (`npm start` runs
 * this before the server): a hash of the sources is kept in build/spa/.source-hash, written after
 * a build succeeds. A start with nothing changed takes no build time and prints nothing.
 *
 *   node --import tsx scripts/build-if-changed.ts
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the SPA is built from, relative to the project root: folders are read whole. */
export const SOURCES = ['src', 'core', 'machines', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];
/** Where the hash of the last build's sources is kept (inside the build, so a deleted build rebuilds). */
export const HASH_FILE = path.join('build', 'spa', '.source-hash');

/** One hash over every file's path and content, in a fixed order. */
export function sourceHash(root: string, sources: readonly string[] = SOURCES): string {
  const hash = createHash('sha256');
  const add = (relative: string) => {
    const file = path.join(root, relative);
    if (!existsSync(file)) return;
    if (statSync(file).isDirectory()) {
      for (const name of readdirSync(file).sort()) add(path.join(relative, name));
      return;
    }
    // The path too: a file renamed or moved changes the build.
    hash.update(relative.split(path.sep).join('/')).update('\0').update(readFileSync(file)).update('\0');
  };
  sources.forEach(add);
  return hash.digest('hex');
}

/** Runs `build` unless the sources hash to what the last build recorded; records the new hash after it. */
export function buildIfChanged(root: string, build: () => void, sources: readonly string[] = SOURCES): 'built' | 'up to date' {
  const hashFile = path.join(root, HASH_FILE);
  const current = sourceHash(root, sources);
  const built = existsSync(path.join(root, 'build', 'spa', 'index.html')) && existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : undefined;
  if (built === current) return 'up to date';
  build();
  writeFileSync(hashFile, `${current}\n`);
  return 'built';
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  buildIfChanged(root, () => {
    console.log('Building the web app (its sources changed since the last build)…');
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
