/**
 * The identity count as a WebAssembly kernel over the index's column memory (issue 29) against the JavaScript loop it
 * replaced: the same profiles, in the same order, with the same compared and failed markers, on random indexes with
 * untyped markers, every stringency and several allowed mismatches, whole and by slices; and with its SIMD filter
 * first, on random tables and columns.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import type { Genotype } from '../../../../server/genetics/types';
import { identityPlans } from '../../../../server/matching/identity-search';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import { filterTerms } from '../../../../server/matching/count-filter';
import { COMPARED, countPlan, countScan, countScanLoop, FAIL } from '../../../../server/matching/scans';
import { memoryOf } from '../../../../server/matching/shared-memory';
import type { Stringency } from '../../../../server/matching/types';

const population = fbi2015Population('Caucasian');

/** A seeded random number in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Profiles with a share of untyped markers, some copies and relatives of the query among them. */
function randomIndex(seed: number, size: number, query: ReadonlyMap<string, Genotype>): ProfileIndex {
  const next = random(seed);
  const generate = profileGenerator(population, seed);
  const index = new ProfileIndex('kit', 'Autosomal');
  const dropped = (genotypes: ReadonlyMap<string, Genotype>, share: number) => new Map([...genotypes].filter(() => next() >= share));
  for (let i = 0; i < size; i++) {
    const roll = next();
    const genotypes = roll < 0.03 ? query : roll < 0.08 ? siblingOf(query, population, i) : generate();
    index.upsert(`P${i}`, dropped(genotypes, next() < 0.3 ? 0.4 : 0.05), { organizationId: 'org', sampleType: 'Convicted Offender' });
  }
  return index;
}

type Hit = [slot: number, compared: number, fails: number];
const hitsOf = (scan: typeof countScan, size: number, plans: Parameters<typeof countScan>[1], maxFails: number, minCompared: number) => {
  const hits: Hit[] = [];
  scan(size, plans, maxFails, minCompared, (slot, compared, fails) => hits.push([slot, compared, fails]));
  return hits;
};

describe('the identity count kernel', () => {
  it('finds what the JavaScript loop finds, with the same counts, for every stringency and allowed mismatches', () => {
    for (const seed of [3, 17]) {
      const query = dropQueryMarkers(profileGenerator(population, 1000 + seed)(), seed);
      const index = randomIndex(seed, 9000 + 1234 * seed, query);
      for (const stringency of ['high', 'moderate', 'low'] as Stringency[]) {
        const plans = identityPlans(index, query, stringency);
        expect(memoryOf(plans[0]!.lo)).toBeDefined();
        // 1e300: an exclusion analysis's threshold may allow any number of exclusions (every profile passes).
        for (const maxFails of [0, 1, 2, 5, 1e300]) {
          for (const minCompared of [0, 8, 13]) {
            const kernel = hitsOf(countScan, index.size, plans, maxFails, minCompared);
            expect(kernel).toEqual(hitsOf(countScanLoop, index.size, plans, maxFails, minCompared));
            if (maxFails === 0 && minCompared === 8) expect(kernel.length).toBeGreaterThan(100);
          }
        }
      }
    }
  });

  it('reads a slice of a pinned snapshot in place, in a view, as the loop reads it', () => {
    const query = profileGenerator(population, 77)();
    const index = randomIndex(5, 20_000, query);
    const snapshot = index.pin();
    for (const [from, to] of [[0, 7001], [7001, 13_333], [13_333, 20_000]] as const) {
      const view = ProfileIndex.view(snapshot, { from, to });
      const plans = identityPlans(view, query, 'moderate');
      expect(memoryOf(plans[0]!.lo)).toBe(snapshot.memory);
      expect(hitsOf(countScan, view.size, plans, 1, 10)).toEqual(hitsOf(countScanLoop, view.size, plans, 1, 10));
    }
    index.unpin();
  });
});

describe('the SIMD filter before the identity count', () => {
  it('lists what the JavaScript loop lists, with the same counts, for random selective tables over random columns', () => {
    for (const seed of [1, 2, 3, 4]) {
      const next = random(seed);
      const { index, planted } = randomColumns(next, 4096 * 6 + 77 + seed, 7);
      const plans = planted.map((pair, m) => randomPlan(next, index.column(`M${m}`)!, pair));
      for (const maxFails of [0, 1, 2]) {
        expect(countPlan(index.size, plans, maxFails).filter, `seed ${seed}, ${maxFails} allowed`).not.toBeNull();
        for (const minCompared of [0, 4]) {
          const filtered = hitsOf(countScan, index.size, plans, maxFails, minCompared);
          expect(filtered).toEqual(hitsOf(countScanLoop, index.size, plans, maxFails, minCompared));
          expect(filtered.length, `seed ${seed}, ${maxFails} allowed, ${minCompared} compared`).toBeGreaterThan(20);
        }
      }
      // Slices starting anywhere (not on 16 profiles) and ending in a short run.
      const snapshot = index.pin();
      for (const [from, to] of [[0, 9001], [9001, 17_003], [17_003, index.size]] as const) {
        const view = ProfileIndex.view(snapshot, { from, to });
        const viewPlans = plans.map((plan, m) => ({ ...plan, lo: view.column(`M${m}`)!.lo, hi: view.column(`M${m}`)!.hi }));
        expect(countPlan(view.size, viewPlans, 1).filter).not.toBeNull();
        expect(hitsOf(countScan, view.size, viewPlans, 1, 0)).toEqual(hitsOf(countScanLoop, view.size, viewPlans, 1, 0));
      }
      index.unpin();
    }
  });

  it('covers every genotype a table lets through, for random tables, or declines the marker', () => {
    for (const seed of [5, 6, 7, 8, 9, 10]) {
      const next = random(seed);
      for (let round = 0; round < 200; round++) {
        const n = 2 + Math.floor(next() * 30);
        const shift = 32 - Math.clz32(n - 1);
        // Mostly failing, some codes passing (0 not compared, 1 compared): single codes, whole rows and columns.
        const table = new Uint32Array(1 << (2 * shift)).fill(COMPARED + FAIL);
        const pass = (lo: number, hi: number) => (table[(lo << shift) | hi] = next() < 0.5 ? 0 : COMPARED);
        for (let k = Math.floor(next() * 4); k > 0; k--) pass(Math.floor(next() * n), Math.floor(next() * n));
        if (next() < 0.5) for (let hi = 0; hi < n; hi++) pass(Math.floor(next() * n), hi);
        if (next() < 0.5) for (let lo = 0; lo < n; lo++) pass(lo, Math.floor(next() * n));
        const terms = filterTerms({ lo: new Uint8Array(0), hi: new Uint8Array(0), shift, table, alleles: n });
        if (!terms) continue;
        for (let lo = 0; lo < n; lo++) {
          for (let hi = lo; hi < n; hi++) {
            const covered = terms.los.includes(lo) || terms.his.includes(hi) || (terms.pairLos.includes(lo) && terms.pairHis.includes(hi));
            if (table[(lo << shift) | hi]! < FAIL) expect(covered, `code ${lo}/${hi}`).toBe(true);
          }
        }
        expect([...terms.los, ...terms.his, ...terms.pairLos, ...terms.pairHis].every((v) => v !== terms.none)).toBe(true);
      }
    }
  });
});

/**
 * An index of `markers` markers, each with its own dictionary of 16–40 alleles, one genotype in a hundred untyped; one
 * profile in five hundred holds a planted pair of alleles at most markers, so the tables letting those through find some.
 */
function randomColumns(next: () => number, size: number, markers: number): { index: ProfileIndex; planted: [string, string][] } {
  const alleles = Array.from({ length: markers }, () => 16 + Math.floor(next() * 25));
  const allele = (n: number) => String(1 + Math.floor(next() * n));
  const planted = alleles.map((n): [string, string] => [allele(n), allele(n)]);
  const index = new ProfileIndex('kit', 'Autosomal');
  for (let i = 0; i < size; i++) {
    const copy = next() < 0.002;
    const genotypes = new Map<string, Genotype>();
    alleles.forEach((n, m) => {
      if (next() < 0.01) return;
      const a = allele(n);
      genotypes.set(`M${m}`, copy && next() < 0.95 ? planted[m]! : next() < 0.2 ? [a] : [a, allele(n)]);
    });
    index.upsert(`P${i}`, genotypes, { organizationId: 'org', sampleType: 'Convicted Offender' });
  }
  return { index, planted };
}

/**
 * A table a few genotypes pass, as identity tables are: untyped (0) not compared, the genotypes of the planted pair's
 * alleles, and sometimes a whole row or column of one of them, passing (compared, or not compared as a lab marking
 * is); the rest fail.
 */
function randomPlan(next: () => number, column: { lo: Uint8Array; hi: Uint8Array; alleles: readonly string[]; indexOf: ReadonlyMap<string, number> }, planted: readonly [string, string]) {
  const n = column.alleles.length;
  const shift = 32 - Math.clz32(n - 1);
  const table = new Uint32Array(1 << (2 * shift));
  const [a, b] = planted.map((allele) => column.indexOf.get(allele)!);
  const [wholeRow, wholeColumn] = [next() < 0.1, next() < 0.1];
  const passes = (lo: number, hi: number) => (wholeRow && lo === a) || (wholeColumn && hi === b) || ((lo === a || lo === b) && (hi === a || hi === b));
  for (let lo = 1; lo < n; lo++) for (let hi = lo; hi < n; hi++) table[(lo << shift) | hi] = passes(lo, hi) ? (next() < 0.1 ? 0 : COMPARED) : COMPARED + FAIL;
  return { lo: column.lo, hi: column.hi, shift, table, alleles: n };
}

/** The query with a few markers untyped, so some plans are missing. */
function dropQueryMarkers(query: ReadonlyMap<string, Genotype>, seed: number): Map<string, Genotype> {
  return new Map([...query].filter((_, m) => (m + seed) % 7 !== 0));
}
