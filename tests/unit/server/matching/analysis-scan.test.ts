import { describe, expect, it } from 'vitest';
import { CODIS_CORE, fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { evaluateComputational, evaluateExclusion } from '../../../../server/genetics/evaluate-analysis';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { pairWeigher, scanAnalysis } from '../../../../server/matching/analysis-scan';
import { searchAnalysis } from '../../../../server/matching/analysis-search';
import { IndexSet } from '../../../../server/matching/index-set';
import { markerEvaluator } from '../../../../server/matching/marker-evaluator';
import { isRoleSymmetric, searchProfile } from '../../../../server/matching/search-profile';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const population = fbi2015Population('Caucasian');
const matchPopulation: MatchPopulation = { id: 'fbi-cauc', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const seeded = (name: string): MatchAnalysis => {
  const a = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((s) => s.name === name)!;
  return { id: name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const order = [...CODIS_CORE];

function indexWith(profiles: Map<string, ReadonlyMap<string, Genotype>>) {
  const set = new IndexSet();
  for (const [id, genotypes] of profiles) set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes });
  return set;
}

describe('the lookup tables hold what evaluate-analysis computes', () => {
  it('the FBI 2015 file is read (not the synthetic fallback)', () => {
    expect(population.source).toBe('FBI 2015');
    expect(population.markers.size).toBe(20);
  });

  it.each(['Identity', 'Full siblings', 'Parent–child'])('%s: every marker of several pairs equals evaluateComputational, and so does the combined index', (name) => {
    const analysis = seeded(name);
    const generate = profileGenerator(population, 42);
    for (let k = 0; k < 6; k++) {
      const a = generate();
      const b = k % 2 === 0 ? siblingOf(a, population, k) : k === 3 ? a : generate();
      const engine = evaluateComputational(analysis, [a, b], population, order);
      for (const m of engine.markers) {
        const mine = markerEvaluator(analysis, m.marker, population)([a.get(m.marker) ?? null, b.get(m.marker) ?? null]);
        expect(mine.value, `${name} ${m.marker}`).toBe(m.value);
      }
      // The scan over an index holding b gives the same combined index (threshold 0 keeps every result).
      const set = indexWith(new Map([['B', b]]));
      const [found] = scanAnalysis(set.index('kit', 'Autosomal'), { analysis: { ...analysis, threshold: 0 }, query: a, queryRole: 0, population: matchPopulation, minMarkers: 0 });
      if (engine.combinedIndex === 0) expect(found?.combinedIndex ?? 0).toBe(0);
      else expect(Math.abs(Math.log10(found!.combinedIndex!) - engine.log10!)).toBeLessThan(1e-9);
      expect(found?.markerCount ?? 20).toBe(engine.markers.filter((x) => x.value !== null).length);
    }
  });

  it('a lookup table of every genotype pair of two markers equals evaluateComputational, the populations sharing each pair\'s pattern', () => {
    const other = fbi2015Population('African American');
    const twoRoles = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).filter((a) => a.kind === 'Computational' && a.profileKind === 'Autosomal' && a.roles.length === 2);
    expect(twoRoles.length).toBeGreaterThan(3);
    for (const name of twoRoles.map((a) => a.name)) {
      const analysis = seeded(name);
      for (const marker of ['D18S51', 'TPOX']) {
        const alleles = [...population.markers.get(marker)!.frequencies.keys()];
        // The column's genotypes are kept objects, as a table's are: the second population finds each pair located.
        const column = alleles.flatMap((a, i) => alleles.slice(i).map((b) => (a === b ? [a] : [a, b])));
        for (const query of [[alleles[1]!, alleles[3]!], [alleles[2]!]]) {
          for (const frequencies of [population, other]) {
            const evaluateMarker = markerEvaluator(analysis, marker, frequencies);
            for (const stored of column) {
              const engine = evaluateComputational(analysis, [new Map([[marker, query]]), new Map([[marker, stored]])], frequencies, [marker]).markers[0]!;
              const mine = evaluateMarker([query, stored]);
              expect(mine.value, `${name} ${marker} ${query}–${stored}`).toBe(engine.value);
            }
          }
        }
      }
    }
  });

  it('a table against a fixed query genotype (each pair located by its shape) equals evaluateComputational in either role, for any query', () => {
    const twoRoles = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).filter((a) => a.kind === 'Computational' && a.profileKind === 'Autosomal' && a.roles.length === 2);
    const marker = 'D21S11';
    const alleles = [...population.markers.get(marker)!.frequencies.keys()];
    // Stored genotypes in either order, homozygous written once or twice; queries likewise, and ones outside the stored alleles.
    const stored = alleles.flatMap((a, i) => alleles.slice(i).flatMap((b) => (a === b ? [[a], [a, a]] : [[a, b], [b, a]])));
    const queries = [[alleles[4]!, alleles[1]!], [alleles[0]!], [alleles[7]!, alleles[7]!], [alleles[2]!, '99'], ['98', '99']];
    for (const name of twoRoles.map((a) => a.name)) {
      const analysis = seeded(name);
      for (const role of [0, 1] as const) {
        for (const query of queries) {
          const evaluate = markerEvaluator(analysis, marker, population, role);
          for (const other of stored) {
            const pair = role === 0 ? [query, other] : [other, query];
            const engine = evaluateComputational(analysis, pair.map((g) => new Map([[marker, g]])), population, [marker]).markers[0]!;
            expect(evaluate(pair).value, `${name} role ${role} ${query}–${other}`).toBe(engine.value);
          }
        }
      }
    }
  });

  it('a table made again for the same query genotype follows what changed since: frequencies, constants, the dictionary', () => {
    // Tables are kept across searches by what they depend on (issue 29); each search must still see its own inputs.
    const analysis = { ...seeded('Full siblings'), threshold: 0 };
    const generate = profileGenerator(population, 77);
    const a = generate();
    const b = siblingOf(a, population, 3);
    const c = generate();
    const set = indexWith(new Map([['B', b]]));
    const index = set.index('kit', 'Autosomal');
    const scan = (pop: typeof population, an: MatchAnalysis) => scanAnalysis(index, { analysis: an, query: a, queryRole: 0, population: { ...matchPopulation, frequencies: pop }, minMarkers: 0 })[0]!.combinedIndex!;
    const expected = (pop: typeof population, an: MatchAnalysis, other = b) => 10 ** evaluateComputational(an, [a, other], pop, order).log10!;
    const close = (x: number, y: number) => expect(Math.abs(Math.log10(x) - Math.log10(y))).toBeLessThan(1e-9);
    close(scan(population, analysis), expected(population, analysis));
    // One allele of the query rarer: the same genotypes, another LR.
    const marker = order.find((m) => a.get(m)!.some((x) => b.get(m)!.includes(x)))!;
    const allele = a.get(marker)!.find((x) => b.get(marker)!.includes(x))!;
    const frequencies = new Map(population.markers.get(marker)!.frequencies).set(allele, 0.01);
    const rarer = { ...population, markers: new Map(population.markers).set(marker, { ...population.markers.get(marker)!, frequencies }) };
    expect(expected(rarer, analysis)).not.toBe(expected(population, analysis));
    close(scan(rarer, analysis), expected(rarer, analysis));
    // Other kinship coefficients: the formulae's constants.
    const changed = { ...analysis, constants: { kappa0: 0.5, kappa1: 0.5, kappa2: 0 } };
    expect(expected(population, changed)).not.toBe(expected(population, analysis));
    close(scan(population, changed), expected(population, changed));
    // A profile with new alleles grows the dictionary: the tables cover them.
    set.upsert({ id: 'C', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: c });
    const found = scanAnalysis(index, { analysis, query: a, queryRole: 0, population: matchPopulation, minMarkers: 0 }).find((m) => m.profileId === 'C')!;
    close(found.combinedIndex!, expected(population, analysis, c));
  });

  it('marks the same markers not evaluated: lab markings, mixtures, markers missing on one side', () => {
    const analysis = seeded('Full siblings');
    const evaluate = markerEvaluator(analysis, 'FGA', population);
    expect(evaluate([['OL', '21'], ['21']]).value).toBeNull();
    expect(evaluate([['20', '21', '22'], ['21']]).value).toBeNull();
    expect(evaluate([null, ['21']]).value).toBeNull();
    const engine = evaluateComputational(analysis, [new Map([['FGA', ['OL', '21']]]), new Map([['FGA', ['21']]])], population, ['FGA']);
    expect(engine.markers[0]!.notEvaluated).toMatch(/OL/);
  });

  it('exclusion counts equal evaluateExclusion', () => {
    const analysis = seeded('Parent–child exclusion');
    const generate = profileGenerator(population, 7);
    const child = generate();
    const parent = siblingOf(child, population, 3);
    const engine = evaluateExclusion(analysis, [child, parent], order);
    const set = indexWith(new Map([['P', parent]]));
    const [found] = scanAnalysis(set.index('kit', 'Autosomal'), { analysis: { ...analysis, threshold: 20 }, query: child, queryRole: 0, population: null, minMarkers: 0 });
    expect(found).toEqual({ profileId: 'P', combinedIndex: null, markerCount: engine.markerCount, nonExclusionMarkerCount: engine.nonExclusionMarkerCount });
  });
});

describe('the database search of an approved profile', () => {
  const generate = profileGenerator(population, 2024);
  const stored = new Map<string, ReadonlyMap<string, Genotype>>(Array.from({ length: 300 }, (_, i) => [`P${String(i).padStart(3, '0')}`, generate()]));
  const approved = generate();
  stored.set('SIB', siblingOf(approved, population, 99));
  stored.set('TWIN', approved);
  const set = indexWith(stored);
  set.upsert({ id: 'ME', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: approved });
  const profile = { id: 'ME', kind: 'Autosomal' as const, chemistryId: 'kit', organizationId: 'org', genotypes: approved };

  it('keeps only results over the threshold, each checked against evaluate-analysis, and never the profile itself', () => {
    const analysis = seeded('Full siblings');
    const hits = searchProfile(profile, [analysis], [matchPopulation], set);
    expect(hits.map((h) => h.profiles.map((p) => p.profileId)).flat()).not.toContain(undefined);
    expect(hits.every((h) => h.profiles.filter((p) => p.profileId === 'ME').length === 1)).toBe(true);
    const others = hits.map((h) => h.profiles.find((p) => p.profileId !== 'ME')!.profileId);
    expect(others).toContain('TWIN');
    for (const [id, genotypes] of stored) {
      const engine = evaluateComputational(analysis, [approved, genotypes], population, order);
      expect(others.includes(id), id).toBe(engine.combinedIndex! >= analysis.threshold!);
    }
  });

  it('an identity search finds the same-source profile only; roles follow the profile ids (stable whichever is approved)', () => {
    const hits = searchProfile(profile, [seeded('Identity')], [matchPopulation], set);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.profiles).toEqual([
      { role: 'Evidence', profileId: 'ME' },
      { role: 'Reference', profileId: 'TWIN' },
    ]);
    const reverse = searchProfile({ ...profile, id: 'TWIN' }, [seeded('Identity')], [matchPopulation], set);
    expect(reverse.map((h) => h.profiles)).toEqual([hits[0]!.profiles]);
    expect(hits[0]!.markerCount).toBe(20);
  });

  it('an exclusion analysis reports non-exclusion counts without a population', () => {
    const hits = searchProfile(profile, [seeded('Parent–child exclusion')], [matchPopulation], set);
    const twin = hits.find((h) => h.profiles.some((p) => p.profileId === 'TWIN'))!;
    expect(twin).toMatchObject({ populationId: null, combinedIndex: null, markerCount: 20, nonExclusionMarkerCount: 20 });
  });

  it('does not search three-role analyses (a trio needs a known pair) nor analyses without a threshold', () => {
    expect(searchProfile(profile, [seeded('Paternity trio'), { ...seeded('Identity'), threshold: null }], [matchPopulation], set)).toEqual([]);
  });

  it('searches an asymmetric formula table in both role orders', () => {
    const fs = seeded('Full siblings');
    // Only PP-PQ (role 1 homozygous, role 2 heterozygous) carries weight: the table is no longer symmetric.
    const lopsided = { ...fs, formulae: fs.formulae.map((f) => ({ ...f, expression: f.pattern === 'PP-PQ' ? '10' : '1' })), threshold: 1 };
    expect(isRoleSymmetric(fs)).toBe(true);
    expect(isRoleSymmetric(lopsided)).toBe(false);
    const small = indexWith(new Map([['HET', new Map([['vWA', ['17', '18']]])], ['HOM', new Map([['vWA', ['17']]])]]));
    const hits = searchProfile({ ...profile, id: 'Q', genotypes: new Map([['vWA', ['17']]]) }, [lopsided], [matchPopulation], small, { minMarkers: 1 });
    expect(hits.map((h) => [h.profiles.map((p) => p.profileId), h.combinedIndex])).toEqual([
      [['HET', 'Q'], 1],
      [['HOM', 'Q'], 1],
      [['Q', 'HET'], 10],
      [['Q', 'HOM'], 1],
    ]);
  });
});

describe('the synthetic generator', () => {
  it('gives the same profiles for the same seed, and different ones for another', () => {
    const a = profileGenerator(population, 5);
    const b = profileGenerator(population, 5);
    const c = profileGenerator(population, 6);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    expect([...first[0]!.keys()].sort()).toEqual([...CODIS_CORE].sort());
  });
});

describe('searchAnalysis: an analysis as the server searches it', () => {
  it('gives scanAnalysis\'s matches, in its order, through the fused pass on an autosomal index (side-list profiles last)', () => {
    const population = fbi2015Population();
    const generate = profileGenerator(population, 4);
    const set = new IndexSet();
    const people = Array.from({ length: 6000 }, () => generate());
    people.forEach((genotypes, i) => set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'Convicted Offender', genotypes }));
    // A side-list profile: three alleles at a marker, a sibling of the first.
    const side = new Map(siblingOf(people[0]!, population, 9));
    const [marker, genotype] = [...side][0]!;
    side.set(marker, [...genotype, '99']);
    set.upsert({ id: 'SIDE', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'Convicted Offender', genotypes: side });
    const seed = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((a) => a.name === 'Full siblings')!;
    const analysis = { id: 'fs', kind: seed.kind, profileKind: seed.profileKind, roles: seed.roles, threshold: 10, formulae: seed.formulae, constants: Object.fromEntries(seed.constants.map((c) => [c.name, c.value])) } as never;
    const index = set.index('kit', 'Autosomal');
    const request = { analysis, query: siblingOf(people[0]!, population, 3), queryRole: 0 as const, population: { id: 'pop', kind: 'Autosomal' as const, frequencies: population, haplotypes: [] }, minMarkers: 6 };
    const scanned = scanAnalysis(index, request);
    expect(scanned.length).toBeGreaterThan(2);
    expect(scanned.some((m) => m.profileId === 'SIDE')).toBe(true);
    expect(searchAnalysis(index, request)).toEqual(scanned);
  });

  it('confirms each candidate with the figures the profile weighed marker by marker gives: every hit, no other, each compared marker counted', () => {
    // The exact confirmation counts compared markers without naming them (issue 29): held to pairWeigher, which names them.
    const population = fbi2015Population();
    const generate = profileGenerator(population, 8);
    const set = new IndexSet();
    const query = generate();
    const people = Array.from({ length: 3000 }, (_, i) => {
      const genotypes = i % 50 === 0 ? siblingOf(query, population, i) : generate();
      // Some markers untyped: the marker count differs from profile to profile.
      if (i % 3 === 0) for (const marker of [...genotypes.keys()].slice(0, 1 + (i % 7))) genotypes.delete(marker);
      return genotypes;
    });
    people.forEach((genotypes, i) => set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'Convicted Offender', genotypes }));
    const seed = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((a) => a.name === 'Full siblings')!;
    const analysis = { id: 'fs', kind: seed.kind, profileKind: seed.profileKind, roles: seed.roles, threshold: 100, formulae: seed.formulae, constants: Object.fromEntries(seed.constants.map((c) => [c.name, c.value])) } as never;
    const request = { analysis, query, queryRole: 0 as const, population: { id: 'pop', kind: 'Autosomal' as const, frequencies: population, haplotypes: [] }, minMarkers: 14 };
    const weigh = pairWeigher(request);
    const expected = people.flatMap((genotypes, i) => {
      const figures = weigh(genotypes);
      return figures ? [{ profileId: `P${i}`, ...figures, combinedIndex: expect.closeTo(figures.combinedIndex!, 9) }] : [];
    });
    const found = searchAnalysis(set.index('kit', 'Autosomal'), request);
    expect(found.length).toBeGreaterThan(20);
    expect(new Set(found.map((m) => m.markerCount)).size).toBeGreaterThan(2);
    expect([...found].sort((a, b) => Number(a.profileId.slice(1)) - Number(b.profileId.slice(1)))).toEqual(expected);
  });
});
