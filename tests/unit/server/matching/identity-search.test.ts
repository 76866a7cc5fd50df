import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareGenotypes, compareProfiles } from '../../../../server/matching/genotype-comparison';
import { identityPlans, searchIdentity } from '../../../../server/matching/identity-search';
import { planColumn } from '../../../../server/matching/lookup-table';
import { COMPARED, FAIL } from '../../../../server/matching/scans';
import { isComparable, parseAllele } from '../../../../core/alleles';
import { IndexSet } from '../../../../server/matching/index-set';
import { isIgnoredMarker, ProfileIndex } from '../../../../server/matching/profile-index';
import type { IdentityOptions, Stringency } from '../../../../server/matching/types';

const profile = (entries: Record<string, string[]>) => new Map(Object.entries(entries));
const MODERATE: IdentityOptions = { stringency: 'moderate', minMarkers: 1, maxMismatches: 0 };

function indexOf(profiles: Record<string, Record<string, string[]>>) {
  const set = new IndexSet();
  for (const [id, g] of Object.entries(profiles)) set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: profile(g) });
  return { set, index: set.index('kit', 'Autosomal') };
}
const ids = (found: { profileId: string }[]) => found.map((c) => c.profileId).sort();

describe('CODIS stringency at one marker', () => {
  it.each<[Stringency, string[], string[], string]>([
    ['high', ['12', '14'], ['12', '14'], 'match'],
    ['high', ['12'], ['12', '14'], 'mismatch'],
    ['high', ['12'], ['12'], 'match'],
    ['moderate', ['12'], ['12', '14'], 'match'],
    ['moderate', ['12', '14'], ['12'], 'match'],
    ['moderate', ['12', '14', '15'], ['12', '15'], 'match'],
    ['moderate', ['12', '14'], ['12', '15'], 'mismatch'],
    ['low', ['12', '14'], ['12', '15'], 'match'],
    ['low', ['12', '14'], ['13', '15'], 'mismatch'],
    ['low', ['12'], ['13'], 'mismatch'],
  ])('%s: %j against %j is a %s', (stringency, a, b, expected) => {
    expect(compareGenotypes(stringency, a, b)).toBe(expected);
  });

  it('skips a marker missing on either side or holding a lab marking', () => {
    expect(compareGenotypes('high', ['12'], undefined)).toBe('skip');
    expect(compareGenotypes('high', [], ['12'])).toBe('skip');
    expect(compareGenotypes('low', ['OL', '12'], ['12'])).toBe('skip');
  });
});

describe('the identity search over the index', () => {
  const db = {
    same: { D3S1358: ['15', '16'], vWA: ['17'], FGA: ['21', '24'] },
    homozygousAtD3: { D3S1358: ['15'], vWA: ['17'], FGA: ['21', '24'] },
    oneOff: { D3S1358: ['15', '16'], vWA: ['18'], FGA: ['21', '24'] },
    partial: { D3S1358: ['15', '16'] },
    mixture: { D3S1358: ['14', '15', '16'], vWA: ['17', '18'], FGA: ['21', '22', '24'] },
  };
  const query = profile({ D3S1358: ['15', '16'], vWA: ['17'], FGA: ['21', '24'], Amelogenin: ['X', 'Y'] });

  it('high stringency finds identical allele sets only; moderate adds contained sets and mixtures', () => {
    const { index } = indexOf(db);
    expect(ids(searchIdentity(index, query, { ...MODERATE, stringency: 'high' }))).toEqual(['partial', 'same']);
    expect(ids(searchIdentity(index, query, MODERATE))).toEqual(['homozygousAtD3', 'mixture', 'partial', 'same']);
  });

  it('counts compared markers (Amelogenin is not one) and honours the minimum and the allowed mismatches', () => {
    const { index } = indexOf(db);
    const found = searchIdentity(index, query, { stringency: 'high', minMarkers: 3, maxMismatches: 1 });
    expect(found.sort((a, b) => a.profileId.localeCompare(b.profileId))).toEqual([
      { profileId: 'homozygousAtD3', comparedMarkers: 3, mismatches: 1 },
      { profileId: 'oneOff', comparedMarkers: 3, mismatches: 1 },
      { profileId: 'same', comparedMarkers: 3, mismatches: 0 },
    ]);
    expect(ids(searchIdentity(index, query, { stringency: 'high', minMarkers: 2, maxMismatches: 0 }))).toEqual(['same']);
  });

  it('keeps mixtures in the side list, never in the byte columns', () => {
    const { index } = indexOf(db);
    expect(index.side.has('mixture')).toBe(true);
    expect(index.size).toBe(4);
  });

  it('never returns the query itself', () => {
    const { index } = indexOf(db);
    expect(ids(searchIdentity(index, query, MODERATE, 'same'))).not.toContain('same');
  });

  it('follows replacement and removal: a reset profile is gone, a re-approved one is found with its new genotypes', () => {
    const { set, index } = indexOf(db);
    set.remove('same');
    set.upsert({ id: 'oneOff', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: profile(db.same) });
    set.upsert({ id: 'mixture', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: profile({ vWA: ['19'] }) });
    expect(ids(searchIdentity(index, query, { stringency: 'high', minMarkers: 1, maxMismatches: 0 }))).toEqual(['oneOff', 'partial']);
    expect(index.side.size).toBe(0);
    expect(index.genotypesOf('oneOff')).toEqual(profile(db.same));
    expect(index.genotypesOf('same')).toBeUndefined();
    expect(index.profileCount).toBe(4);
  });

  it('stores 2 bytes per profile and marker, 2 for its organization and sample type, 16 for its id and 4.6 to find it by id', () => {
    const set = new IndexSet();
    const index = set.index('kit', 'Autosomal');
    index.reserve(2000);
    for (let i = 0; i < 2000; i++) set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: profile({ A: [String(i % 20), '30'], B: ['7'] }) });
    // The id table has ⌈capacity / 0.875⌉ four-byte buckets: once the room ran low, the table for the next capacity
    // (2000 × 1.25) was built ahead of the growth and took over.
    expect(index.indexBytes()).toBe(2000 * (2 * 2 + 2 + 16) + 4 * Math.ceil(2500 / 0.875));
  });
});

describe('the index agrees with a plain per-profile comparison', () => {
  const MARKERS = ['D3S1358', 'vWA', 'FGA', 'TH01', 'Amelogenin'];
  const genotype = fc.uniqueArray(fc.constantFrom('8', '9', '9.3', '10', '11', 'OL'), { minLength: 0, maxLength: 3 });
  const profileArb = fc.dictionary(fc.constantFrom(...MARKERS), genotype, { maxKeys: MARKERS.length }).map((d) => new Map(Object.entries(d).filter(([, g]) => g.length > 0)));

  it('returns exactly the profiles a naive comparison finds, with the same counts', () => {
    fc.assert(
      fc.property(
        fc.array(profileArb, { maxLength: 40 }),
        profileArb,
        fc.constantFrom<Stringency>('high', 'moderate', 'low'),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.nat({ max: 39 }), { maxLength: 10 }),
        (stored, query, stringency, minMarkers, maxMismatches, removed) => {
          const set = new IndexSet();
          stored.forEach((g, i) => set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: g }));
          for (const r of removed) set.remove(`P${r}`);
          const gone = new Set(removed.map((r) => `P${r}`));
          const options = { stringency, minMarkers, maxMismatches };
          const naive = stored
            .map((g, i) => ({ profileId: `P${i}`, ...compareProfiles(stringency, query, g, isIgnoredMarker) }))
            .filter((c) => !gone.has(c.profileId) && c.mismatches <= maxMismatches && c.comparedMarkers >= minMarkers);
          const indexed = searchIdentity(set.index('kit', 'Autosomal'), query, options);
          const byId = (a: { profileId: string }, b: { profileId: string }) => a.profileId.localeCompare(b.profileId);
          expect(indexed.sort(byId)).toEqual(naive.sort(byId));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the identity tables', () => {
  const ALLELES = ['8', '9', '9.3', '10', '11', '12', '13.2', 'OL', '<8', '>21', 'X', 'Y'];

  it('give every stored genotype the verdict of the plain comparison (compared, failed or not compared)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.constantFrom(...ALLELES), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 30 }),
        fc.uniqueArray(fc.constantFrom(...ALLELES.filter((a) => isComparable(parseAllele(a)))), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<Stringency>('high', 'moderate', 'low'),
        (stored, query, stringency) => {
          const index = new ProfileIndex('kit', 'Autosomal');
          stored.forEach((g, i) => index.upsert(`P${i}`, new Map([['D3S1358', g]])));
          const column = index.column('D3S1358')!;
          const [plan] = identityPlans(index, new Map([['D3S1358', query]]), stringency);
          const value = { skip: 0, match: COMPARED, mismatch: COMPARED + FAIL };
          const expected = planColumn(column, (n) => new Uint32Array(n), (genotype) => value[compareGenotypes(stringency, query, genotype)], 0);
          expect([...plan!.table]).toEqual([...expected.table]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
