import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The project's root, from which every path here is written. */
export const root = path.resolve(import.meta.dirname, '../..');

/** Every TypeScript source of a folder (generated declarations such as `src/api/schema.d.ts` left out), from the root. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

const isFile = (file: string) => statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile() ?? false;

/** The file an import names, as the bundler finds it (extension or index added); the bare path when none exists (a stylesheet, an asset). */
function resolved(from: string, specifier: string): string {
  const target = path.relative(root, path.resolve(path.dirname(path.join(root, from)), specifier));
  const candidates = [target, `${target}.ts`, `${target}.tsx`, `${target}.mjs`, target.replace(/\.js$/, '.ts'), `${target}/index.ts`, `${target}/index.tsx`];
  return candidates.find(isFile) ?? target;
}

/** Every relative import of `file` (static, dynamic, type-only and re-exports), resolved to a path from the root. */
export function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => resolved(file, m[1]!));
}

/** Lines of a file as `wc -l` counts them. */
export const lineCount = (file: string): number => readFileSync(path.join(root, file), 'utf8').split('\n').length - 1;
