/**
 * How much compressed JavaScript and CSS the first load of a page fetches (ARCHITECTURE.md
 * "Deployment": the SPA is split by route). Builds the SPA with a manifest into a temporary folder,
 * then follows the module graph from index.html's entry through the static imports of the chunks
 * a route loads on arrival: the sign-in page is the entry alone; the dashboard adds the lazy
 * signed-in area (src/app/org-area.tsx) and its page (src/dashboard/dashboard-page.tsx).
 *
 *   node --import tsx scripts/measure-first-load.ts [--budget 200]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const ROUTES: Record<string, string[]> = {
  'sign-in (/authentication)': [],
  'dashboard (/{orgId})': ['src/app/org-area.tsx', 'src/dashboard/dashboard-page.tsx'],
};

/** The files a browser fetches to run `keys`: each chunk, its static imports and their CSS, once. */
export function firstLoadFiles(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    files.add(chunk.file);
    chunk.css?.forEach((css) => files.add(css));
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const budgetArg = process.argv.indexOf('--budget');
  const budgetKb = budgetArg > 0 ? Number(process.argv[budgetArg + 1]) : 200;
  const outDir = mkdtempSync(path.join(tmpdir(), 'locus-measure-'));
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--manifest', '--outDir', outDir, '--emptyOutDir'], { cwd: root, stdio: 'inherit' });
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
    if (!entry) throw new Error('the manifest names no entry');
    let over = false;
    for (const [route, keys] of Object.entries(ROUTES)) {
      const files = [...firstLoadFiles(manifest, [entry, ...keys])];
      const sum = (only: RegExp, size: (body: Buffer) => number) =>
        files.filter((f) => only.test(f)).reduce((total, f) => total + size(readFileSync(path.join(outDir, f))), 0);
      const raw = sum(/\.js$/, (b) => b.length);
      const gzip = sum(/\.js$/, (b) => gzipSync(b, { level: 9 }).length);
      const brotli = sum(/\.js$/, (b) => brotliCompressSync(b).length);
      const css = sum(/\.css$/, (b) => gzipSync(b, { level: 9 }).length);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(`${route}: ${files.filter((f) => f.endsWith('.js')).length} JS files, ${kb(raw)} raw, ${kb(gzip)} gzip, ${kb(brotli)} brotli; CSS ${kb(css)} gzip`);
      if (gzip > budgetKb * 1024) over = true;
    }
    if (over) {
      console.error(`A first load is over the budget of ${budgetKb} KB of gzipped JavaScript.`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
