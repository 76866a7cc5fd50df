import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Kinds of file worth compressing; images and woff/woff2 fonts are compressed already, and the .ttf fallbacks serve only browsers without woff2. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/** Every file under `dir`, depth first. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * Writes a .br (brotli, highest quality) and a .gz (gzip -9) beside each compressible file under
 * `dir`, kept only when smaller. Done once at build time so the server sends them as they are
 * (server/http/spa/routes.ts, preCompressed) instead of compressing on every request. The files
 * are compressed side by side on libuv's threads: brotli's highest quality is slow.
 */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; brotli: number; gzip: number }> {
  const total = { files: 0, bytes: 0, brotli: 0, gzip: 0 };
  const compressible = filesUnder(dir).filter((file) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_BYTES);
  await Promise.all(
    compressible.map(async (file) => {
      const body = readFileSync(file);
      const [br, gz] = await Promise.all([
        brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzip(body, { level: 9 }),
      ]);
      total.files += 1;
      total.bytes += body.length;
      if (br.length < body.length) {
        writeFileSync(`${file}.br`, br);
        total.brotli += br.length;
      }
      if (gz.length < body.length) {
        writeFileSync(`${file}.gz`, gz);
        total.gzip += gz.length;
      }
    }),
  );
  return total;
}

/** The Vite side: compresses the build's output folder once everything is written. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'locus-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

// The SPA is built into build/spa and served by the Fastify server (server/http/spa/routes.ts).
export default defineConfig({
  plugins: [react(), precompress()],
  // `npm start` builds when the sources changed: the operator needs warnings, not the file listing.
  logLevel: 'warn',
  build: {
    outDir: 'build/spa',
    emptyOutDir: true,
    // No source maps: they would publish the whole source, and nothing serves them.
    sourcemap: false,
    // AG Grid alone is about 800 kB, in a chunk only the pages with a table load; the first-load
    // budget is checked by scripts/measure-first-load.ts instead.
    chunkSizeWarningLimit: 1000,
  },
  server: {
    // `npm run dev` (Vite) talks to a server started with `npm run dev:server`.
    proxy: { '/api': 'http://localhost:8080', '/oidc': 'http://localhost:8080' },
  },
});
