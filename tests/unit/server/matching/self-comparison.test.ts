import { describe, expect, it } from 'vitest';
import type { Genotype } from '../../../../server/genetics/types';
import { IndexSet } from '../../../../server/matching/index-set';
import type { ProfileIndex } from '../../../../server/matching/profile-index';
import { columnsOf, compareSelf, type SelfComparisonOptions, type SelfComparisonPair } from '../../../../server/matching/self-comparison';
import { seededRandom } from '../../../../core/seeded-random';

const MARKERS = ['CSF1PO', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D13S317', 'D16S539', 'D18S51', 'D21S11', 'FGA', 'TH01', 'TPOX', 'vWA', 'D1S1656', 'D2S441', 'D2S1338', 'D10S1248', 'D12S391', 'D19S433', 'D22S1045'];


type Profile = Map<string, Genotype>;

function build(profiles: [string, Profile, string?][]): { set: IndexSet; index: ProfileIndex } {
  const set = new IndexSet();
  for (const [id, genotypes, org] of profiles) set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: org ?? 'org-a', sampleType: 'Convicted Offender', genotypes });
  return { set, index: set.index('kit', 'Autosomal') };
}

/** The pairs by plain definition, every pair of slots looked at (the reference the fast search must equal). */
function bruteForce(index: ProfileIndex, { maxDifferences = 2, minEqualMarkers = 10 }: SelfComparisonOptions, include?: (slot: number) => boolean) {
  const columns = index.markerColumns();
  const out: string[] = [];
  for (let a = 0; a < index.size; a++) {
    if (include && !include(a)) continue;
    for (let b = a + 1; b < index.size; b++) {
      if (include && !include(b)) continue;
      let equal = 0;
      const differing: string[] = [];
      for (const c of columns) {
        const typedA = c.lo[a] !== 0;
        const typedB = c.lo[b] !== 0;
        if (!typedA && !typedB) continue;
        if (typedA && typedB && c.lo[a] === c.lo[b] && c.hi[a] === c.hi[b]) equal++;
        else differing.push(c.name);
      }
      if (differing.length <= maxDifferences && equal >= minEqualMarkers) out.push(key(index.idAt(a), index.idAt(b), equal, differing));
    }
  }
  return out.sort();
}

function key(x: string, y: string, equal: number, differing: string[]) {
  const [a, b] = x < y ? [x, y] : [y, x];
  return `${a}|${b}|${equal}|${[...differing].sort().join(',')}`;
}
const keysOf = (index: ProfileIndex, pairs: SelfComparisonPair[]) => pairs.map((p) => key(index.idAt(p.first), index.idAt(p.second), p.equalMarkers, p.differences.map((d) => d.marker))).sort();

/** Draws a genotype from `alleles` equally likely values (few alleles: many chance near-duplicates). */
function randomProfile(random: () => number, alleles: number, typedShare = 1): Profile {
  const p: Profile = new Map();
  for (const m of MARKERS) {
    if (random() >= typedShare) continue;
    const x = 8 + Math.floor(random() * alleles);
    const y = 8 + Math.floor(random() * alleles);
    p.set(m, x === y ? [String(x)] : [String(Math.min(x, y)), String(Math.max(x, y))]);
  }
  return p;
}

/** A copy of `p` with `count` markers changed (a new genotype, or dropped when `drop`). */
function mutate(random: () => number, p: Profile, count: number, drop = false): Profile {
  const copy = new Map(p);
  const markers = [...copy.keys()];
  for (let k = 0; k < count; k++) {
    const i = Math.floor(random() * markers.length);
    const m = markers.splice(i, 1)[0]!;
    if (drop) copy.delete(m);
    else copy.set(m, copy.get(m)!.join('/') === '30/31' ? ['32', '33'] : ['30', '31']);
  }
  return copy;
}

describe('self-comparison by hand', () => {
  const full = (shift = 0): Profile => new Map(MARKERS.map((m, i) => [m, [String(10 + ((i + shift) % 5)), String(20 + (i % 3))]]));

  it('reports two identical profiles as a duplicate with every typed marker equal', () => {
    const { index } = build([
      ['a', full()],
      ['b', full()],
    ]);
    const { pairs } = compareSelf(columnsOf(index));
    expect(pairs).toEqual([{ first: 0, second: 1, kind: 'duplicate', equalMarkers: 20, differences: [] }]);
  });

  it('names each differing marker with both genotypes; a marker typed in one profile only is a difference', () => {
    const b = full();
    b.set('TH01', ['6', '9.3']);
    b.delete('FGA');
    const { index } = build([
      ['a', full()],
      ['b', b],
    ]);
    const [pair] = compareSelf(columnsOf(index)).pairs;
    expect(pair!.kind).toBe('near-duplicate');
    expect(pair!.equalMarkers).toBe(18);
    expect(pair!.differences).toEqual([
      { marker: 'FGA', first: ['14', '20'], second: null },
      { marker: 'TH01', first: ['10', '21'], second: ['6', '9.3'] },
    ]);
  });

  it('does not report three differences, nor two poor partial profiles below the equal-marker minimum', () => {
    const three = mutate(seededRandom(1), full(), 3);
    const partial = new Map([...full()].slice(0, 6));
    const { index } = build([
      ['a', full()],
      ['b', three],
      ['p', partial],
      ['q', new Map(partial)],
    ]);
    expect(compareSelf(columnsOf(index)).pairs).toEqual([]);
    // With the minimum at 6 the identical partials are duplicates; with 3 differences allowed, a–b is found too.
    expect(compareSelf(columnsOf(index), { minEqualMarkers: 6 }).pairs.map((p) => [index.idAt(p.first), index.idAt(p.second)])).toEqual([['p', 'q']]);
    expect(compareSelf(columnsOf(index), { maxDifferences: 3 }).pairs.map((p) => p.differences.length)).toEqual([3]);
  });

  it('leaves out mixtures (the side list) and profiles outside the organizations asked for', () => {
    const mixture = full();
    mixture.set('vWA', ['14', '15', '16']);
    const { index } = build([
      ['a', full(), 'org-a'],
      ['b', full(), 'org-b'],
      ['m', mixture, 'org-a'],
    ]);
    expect(compareSelf(columnsOf(index)).pairs).toHaveLength(1);
    const onlyA = index.groupMask((g) => g.organizationId === 'org-a');
    expect(compareSelf(columnsOf(index, onlyA)).pairs).toEqual([]);
  });

  it('refuses parameters out of range, naming the allowed ones', () => {
    const { index } = build([['a', full()]]);
    expect(() => compareSelf(columnsOf(index), { maxDifferences: 4 })).toThrow('maxDifferences is 4: it must be a whole number from 0 to 3');
    expect(() => compareSelf(columnsOf(index), { minEqualMarkers: 0 })).toThrow('minEqualMarkers is 0');
  });

  it('keeps every pair of a class of identical profiles, and stops at maxPairs saying so', () => {
    const { index } = build(Array.from({ length: 6 }, (_, i) => [`p${i}`, full()] as [string, Profile]));
    expect(compareSelf(columnsOf(index)).pairs).toHaveLength(15);
    const capped = compareSelf(columnsOf(index), { maxPairs: 4 });
    expect(capped.pairs).toHaveLength(4);
    expect(capped.truncated).toBe(true);
  });
});

describe('self-comparison equals a brute-force comparison of every pair', () => {
  it('5,000 profiles: planted duplicates, near-duplicates at 1 and 2 differences, partials, 3 differences (not reported)', () => {
    const random = seededRandom(15);
    const profiles: [string, Profile][] = [];
    const planted = { duplicate: 0, one: 0, two: 0, three: 0 };
    while (profiles.length < 5000) {
      const i = profiles.length;
      const r = random();
      // Realistic diversity (12 alleles per marker) for most; a few partial profiles (about 13 of 20 typed).
      const base = randomProfile(random, 12, r < 0.15 ? 0.65 : 1);
      profiles.push([`p${i}`, base]);
      const kind = random();
      if (kind < 0.04) {
        profiles.push([`p${i}-dup`, new Map(base)]);
        planted.duplicate++;
      } else if (kind < 0.08) {
        profiles.push([`p${i}-one`, mutate(random, base, 1)]);
        planted.one++;
      } else if (kind < 0.12) {
        profiles.push([`p${i}-two`, mutate(random, base, 2, random() < 0.5)]);
        planted.two++;
      } else if (kind < 0.16) {
        profiles.push([`p${i}-three`, mutate(random, base, 3)]);
        planted.three++;
      }
    }
    // A crowd of low-diversity partial profiles: many share whole blocks, including blocks untyped in all of them.
    for (let i = 0; i < 400; i++) profiles[i] = [`low${i}`, randomProfile(random, 2, 0.6)];
    const { index } = build(profiles.slice(0, 5000));
    const expected = bruteForce(index, {});
    const result = compareSelf(columnsOf(index));
    expect(keysOf(index, result.pairs)).toEqual(expected);
    expect(planted.three).toBeGreaterThan(50);
    expect(result.pairs.some((p) => p.differences.length === 1) && result.pairs.some((p) => p.differences.length === 2) && result.pairs.some((p) => p.kind === 'duplicate')).toBe(true);
    // No pair found with 3 differences at the default limit, and far fewer pairs verified than the 12.5 million pairs.
    expect(result.pairs.every((p) => p.differences.length <= 2)).toBe(true);
    expect(result.pairsVerified).toBeLessThan(500_000);
  });

  it.each([
    { maxDifferences: 0, minEqualMarkers: 10 },
    { maxDifferences: 1, minEqualMarkers: 6 },
    { maxDifferences: 3, minEqualMarkers: 4 },
  ])('low-diversity partial profiles (huge groups), $maxDifferences differences and $minEqualMarkers equal markers', (options) => {
    const random = seededRandom(options.maxDifferences + 7);
    const profiles: [string, Profile][] = Array.from({ length: 1500 }, (_, i) => [`x${i}`, randomProfile(random, 2, random() < 0.5 ? 0.35 : 0.9)]);
    const { index } = build(profiles);
    expect(keysOf(index, compareSelf(columnsOf(index), options).pairs)).toEqual(bruteForce(index, options));
  });

  it('restricted to an organization, equals brute force over that organization’s profiles only', () => {
    const random = seededRandom(99);
    const profiles: [string, Profile, string][] = [];
    for (let i = 0; i < 1000; i++) {
      const base = randomProfile(random, 3, 0.9);
      profiles.push([`o${i}`, base, i % 2 ? 'org-a' : 'org-b'], [`o${i}'`, mutate(random, base, 1), i % 3 ? 'org-a' : 'org-b']);
    }
    const { index } = build(profiles);
    const mask = index.groupMask((g) => g.organizationId === 'org-a');
    const options = { minEqualMarkers: 8 };
    const found = compareSelf(columnsOf(index, mask), options);
    expect(keysOf(index, found.pairs)).toEqual(bruteForce(index, options, (slot) => index.slotInGroups(slot, mask)));
    expect(found.pairs.every((p) => index.slotInGroups(p.first, mask) && index.slotInGroups(p.second, mask))).toBe(true);
  });
});
