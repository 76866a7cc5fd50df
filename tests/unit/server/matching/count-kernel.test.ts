/**
 * The identity count as a WebAssembly kernel over the index's column memory (issue 29) against the JavaScript loop it
 * replaced: the same profiles, in the same order, with the same compared and failed markers, on random indexes with
 * untyped markers, every stringency and several allowed mismatches, whole and by slices.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import type { Genotype } from '../../../../server/genetics/types';
import { identityPlans } from '../../../../server/matching/identity-search';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import { countScan, countScanLoop } from '../../../../server/matching/scans';
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

/** The query with a few markers untyped, so some plans are missing. */
function dropQueryMarkers(query: ReadonlyMap<string, Genotype>, seed: number): Map<string, Genotype> {
  return new Map([...query].filter((_, m) => (m + seed) % 7 !== 0));
}
