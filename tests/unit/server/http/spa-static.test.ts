import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../../vite.config';
import { createTestApp, type TestApp } from '../../../helpers/app';

// A build as Vite and its precompress plugin leave it: hashed assets with .br and .gz beside them.
const spaRoot = mkdtempSync(path.join(tmpdir(), 'locus-spa-static-'));
mkdirSync(path.join(spaRoot, 'assets'));
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(', ')}];\n`;
writeFileSync(path.join(spaRoot, 'assets', 'index-Ab12Cd34.js'), script);
writeFileSync(path.join(spaRoot, 'assets', 'index-Ab12Cd34.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
writeFileSync(path.join(spaRoot, 'assets', 'tiny-Zz99Yy88.js'), 'export {};\n');
writeFileSync(path.join(spaRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(path.join(spaRoot, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/index-Ab12Cd34.js"></script>');
const written = await precompressDir(spaRoot);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ spaRoot });
});
afterAll(async () => {
  await t.close();
  rmSync(spaRoot, { recursive: true, force: true });
});

const asset = (acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js', headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the built SPA as files', () => {
  it('writes a brotli and a gzip copy at build time for files worth compressing only', () => {
    expect(written.files).toBe(1);
    const copy = (name: string) => readFileSync(path.join(spaRoot, name));
    expect(brotliDecompressSync(copy('assets/index-Ab12Cd34.js.br')).toString()).toBe(script);
    expect(gunzipSync(copy('assets/index-Ab12Cd34.js.gz')).toString()).toBe(script);
    // Too small to gain anything.
    expect(existsSync(path.join(spaRoot, 'assets', 'tiny-Zz99Yy88.js.br'))).toBe(false);
    expect(existsSync(path.join(spaRoot, 'index.html.gz'))).toBe(false);
  });

  it('sends the brotli copy to a browser that accepts it, else gzip, else the file itself', async () => {
    const br = await asset('gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await asset('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    // Caches keep one copy per encoding.
    for (const res of [br, gz, plain]) expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('lets hashed assets be cached for good and makes the browser ask again for index.html and unhashed files', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      expect((await asset(encoding)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await t.app.inject({ url: '/assets/tiny-Zz99Yy88.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ url: '/all/cases' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('no-cache');
  });

  it('serves no source map, and answers a missing chunk with 404 rather than the page', async () => {
    expect((await t.app.inject({ url: '/assets/index-Ab12Cd34.js.map' })).statusCode).toBe(404);
    const gone = await t.app.inject({ url: '/assets/org-area-Old00000.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toContain('application/json');
  });
});
