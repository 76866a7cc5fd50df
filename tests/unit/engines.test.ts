import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const declared = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node as string;
const oldest = semver.minVersion(declared)!.version;

/** Every installed package's name, version and declared Node engine, nested copies included. */
function installed(dir: string, out: { name: string; version: string; node?: string }[] = []) {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const at = path.join(dir, entry);
    if (entry.startsWith('@')) {
      installed(at, out);
      continue;
    }
    const manifest = path.join(at, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    out.push({ name: pkg.name, version: pkg.version, node: pkg.engines?.node });
    if (existsSync(path.join(at, 'node_modules'))) installed(path.join(at, 'node_modules'), out);
  }
  return out;
}

describe('the Node.js version the README names', () => {
  it('is the oldest Node every installed dependency supports', () => {
    expect(oldest).toBe('20.19.0');
    const refusing = installed(path.join(root, 'node_modules'))
      .filter((p) => p.node && semver.validRange(p.node) && !semver.satisfies(oldest, p.node))
      .map((p) => `${p.name}@${p.version} wants Node ${p.node}`);
    expect(refusing).toEqual([]);
  });

  it('starts the identity provider without an "Unsupported runtime" warning on this Node', () => {
    const run = spawnSync(process.execPath, ['-e', "import('oidc-provider').then(() => process.stdout.write('loaded'))"], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.stdout).toBe('loaded');
    expect(run.stderr).not.toMatch(/unsupported runtime/i);
  });
});
