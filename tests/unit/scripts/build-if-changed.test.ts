import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfChanged } from '../../../scripts/build-if-changed';

let root: string;
let builds: number;
const write = (relative: string, content: string) => {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
};
// Stands in for `vite build`: empties build/spa and writes the page, as Vite does.
const build = () => {
  builds += 1;
  rmSync(path.join(root, 'build', 'spa'), { recursive: true, force: true });
  write('build/spa/index.html', `<!doctype html><!-- build ${builds} -->`);
};
const start = () => buildIfChanged(root, build);

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'locus-build-if-changed-'));
  builds = 0;
  write('src/main.tsx', 'export {};');
  write('core/permissions.ts', 'export const a = 1;');
  write('index.html', '<div id="root"></div>');
  write('package-lock.json', '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds the SPA only when its sources changed', () => {
  it('builds the first time, then not again while nothing changed', () => {
    expect(start()).toBe('built');
    expect(start()).toBe('up to date');
    expect(start()).toBe('up to date');
    expect(builds).toBe(1);
  });

  it('builds again when a source file changes, is added or is renamed, or the lock file changes', () => {
    start();
    write('src/main.tsx', 'export const changed = true;');
    expect(start()).toBe('built');
    write('machines/session.machine.ts', 'export {};');
    expect(start()).toBe('built');
    rmSync(path.join(root, 'core/permissions.ts'));
    write('core/permissions-renamed.ts', 'export const a = 1;');
    expect(start()).toBe('built');
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(start()).toBe('built');
    expect(start()).toBe('up to date');
    expect(builds).toBe(5);
  });

  it('ignores what the SPA is not built from (server code, tests, the build itself)', () => {
    start();
    write('server/app.ts', 'export {};');
    write('tests/unit/x.test.ts', 'export {};');
    write('build/spa/assets/extra.js', '');
    expect(start()).toBe('up to date');
  });

  it('builds when the build is gone, and again after a build that failed', () => {
    start();
    rmSync(path.join(root, 'build'), { recursive: true, force: true });
    expect(start()).toBe('built');
    write('src/main.tsx', 'syntax error(');
    expect(() =>
      buildIfChanged(root, () => {
        throw new Error('vite build failed');
      }),
    ).toThrow('vite build failed');
    expect(start()).toBe('built');
  });
});
