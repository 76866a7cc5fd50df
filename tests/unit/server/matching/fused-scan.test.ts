/**
 * The fused pass of an approval's search (server/matching/fused-scan.ts) filters with quantised lanes
 * and confirms exactly: whatever the thresholds, it must return what one exact scan per analysis
 * returns, no fewer (a missed hit) and no more.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { planAnalysis, scanAnalysis, type ScanRequest } from '../../../../server/matching/analysis-scan';
import { fusedScan } from '../../../../server/matching/fused-scan';
import { IndexSet } from '../../../../server/matching/index-set';
import { vetoPlans } from '../../../../server/matching/veto-scan';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const population = fbi2015Population('Caucasian');
const matchPopulation: MatchPopulation = { id: 'fbi', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const seeded = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses)
  .filter((a) => a.profileKind === 'Autosomal' && a.roles.length === 2)
  .map((a): MatchAnalysis => ({ id: a.name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) }));

/** A database of unrelated profiles with the query's relatives and a copy planted, plus a mixture in the side list. */
function database(seed: number, query: Map<string, Genotype>) {
  const generate = profileGenerator(population, seed);
  const set = new IndexSet();
  const add = (id: string, genotypes: ReadonlyMap<string, Genotype>) => set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes });
  for (let i = 0; i < 1500; i++) add(`U${i}`, generate());
  for (let i = 0; i < 5; i++) add(`SIB${i}`, siblingOf(query, population, seed + i));
  add('COPY', query);
  add('QUERY', query);
  const mixture = new Map(query);
  mixture.set('vWA', ['14', '16', '17']);
  add('MIXTURE', mixture);
  return set.index('kit', 'Autosomal');
}

const requestFor = (analysis: MatchAnalysis, query: ReadonlyMap<string, Genotype>, queryRole: 0 | 1 = 0): ScanRequest => ({
  analysis,
  query,
  queryRole,
  population: analysis.kind === 'Exclusion' ? null : matchPopulation,
  minMarkers: 6,
  excludeId: 'QUERY',
});

const byProfile = <T extends { profileId: string }>(xs: T[]) => [...xs].sort((a, b) => (a.profileId < b.profileId ? -1 : a.profileId > b.profileId ? 1 : 0));

function expectSameAsExactScans(index: ReturnType<typeof database>, requests: ScanRequest[]) {
  const fused = fusedScan(requests.map((r) => planAnalysis(index, r)!));
  requests.forEach((request, i) => expect(byProfile(fused[i]!), request.analysis.id).toEqual(byProfile(scanAnalysis(index, request))));
  return fused;
}

describe('the fused approval scan', () => {
  it('sees every change to the index between two scans (its columns stay in the kernel\'s memory only while the index is unchanged)', () => {
    const query = profileGenerator(population, 21)();
    const index = database(23, query);
    const identity = seeded.find((a) => a.id === 'Identity')!;
    const request = requestFor(identity, query);
    index.remove('COPY');
    expect(expectSameAsExactScans(index, [request])[0]!.map((m) => m.profileId)).not.toContain('COPY');
    // An upsert appends: the next scan reads the new slot.
    index.upsert('LATE', query);
    expect(expectSameAsExactScans(index, [request])[0]!.map((m) => m.profileId)).toContain('LATE');
    // A removal moves the last profile (LATE) into the hole at slot 0: the next scan reads it there.
    index.remove('U0');
    expect(expectSameAsExactScans(index, [request])[0]!.map((m) => m.profileId)).toContain('LATE');
    // Another index scanned in between, then the first again, changed in place.
    expectSameAsExactScans(database(29, query), [request]);
    index.upsert('LATE', profileGenerator(population, 99)());
    index.upsert('LATER', query);
    const last = expectSameAsExactScans(index, [request])[0]!.map((m) => m.profileId);
    expect(last).toContain('LATER');
    expect(last).not.toContain('LATE');
  });

  it('finds exactly what one exact scan per seed analysis finds, relatives, the copy and the mixture included', () => {
    const query = profileGenerator(population, 7)();
    const index = database(11, query);
    const fused = expectSameAsExactScans(index, seeded.map((a) => requestFor(a, query)));
    const found = new Set(fused.flat().map((m) => m.profileId));
    // Not a vacuous equality: the planted copy, a sibling and the mixture are there, the query itself is not.
    expect(found.has('COPY')).toBe(true);
    expect([...found].some((id) => id.startsWith('SIB'))).toBe(true);
    expect(found.has('MIXTURE')).toBe(true);
    expect(found.has('QUERY')).toBe(false);
  });

  it('agrees with the exact scans for any thresholds, including one equal to a profile’s own combined index and ones nobody or everybody reaches', () => {
    const query = profileGenerator(population, 3)();
    const index = database(5, query);
    const fullSiblings = seeded.find((a) => a.id === 'Full siblings')!;
    const everyone = scanAnalysis(index, requestFor({ ...fullSiblings, threshold: Number.MIN_VALUE }, query));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            analysis: fc.constantFrom(...seeded),
            threshold: fc.oneof(
              fc.double({ min: 1e-12, max: 1e12, noNaN: true }),
              fc.constantFrom(Number.MIN_VALUE, 1e300, ...everyone.slice(0, 20).map((m) => m.combinedIndex!)),
              fc.integer({ min: 0, max: 20 }),
            ),
            queryRole: fc.constantFrom(0 as const, 1 as const),
          }),
          { minLength: 1, maxLength: 7 },
        ),
        (lanes) => {
          expectSameAsExactScans(
            index,
            lanes.map(({ analysis, threshold, queryRole }) => requestFor({ ...analysis, threshold }, query, queryRole)),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('an approval’s search finds each relative once per analysis, as the separate scans did', () => {
    const query = profileGenerator(population, 21)();
    const index = database(23, query);
    const lanes = seeded.flatMap((a) => [requestFor(a, query, 0), requestFor(a, query, 1)]);
    const fused = expectSameAsExactScans(index, lanes);
    for (const matches of fused) expect(new Set(matches.map((m) => m.profileId)).size).toBe(matches.length);
  });

  it('drops a profile only when no lane can still reach its need: thresholds at the very LRs of children spread over several blocks', () => {
    const query = profileGenerator(population, 41)();
    const generate = profileGenerator(population, 43);
    const childOf = (other: ReadonlyMap<string, Genotype>, k: number): Map<string, Genotype> =>
      new Map([...query].map(([marker, g], m) => {
        const alleles = [g[(k + m) % g.length]!, other.get(marker)![m % 2 === 0 ? 0 : other.get(marker)!.length - 1]!].sort((x, y) => Number(x) - Number(y));
        return [marker, alleles[0] === alleles[1] ? [alleles[0]!] : alleles];
      }));
    const set = new IndexSet();
    const add = (id: string, genotypes: ReadonlyMap<string, Genotype>) => set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes });
    // Three blocks of the pass (4,096 profiles each); a child of the query every 1,000 profiles.
    for (let i = 0; i < 10_000; i++) add(i % 1000 === 500 ? `CHILD${i}` : `U${i}`, i % 1000 === 500 ? childOf(generate(), i) : generate());
    const index = set.index('kit', 'Autosomal');
    const parentChild = seeded.find((a) => a.id === 'Parent–child')!;
    const ranked = scanAnalysis(index, requestFor({ ...parentChild, threshold: Number.MIN_VALUE }, query)).sort((a, b) => b.combinedIndex! - a.combinedIndex!);
    expect(ranked.slice(0, 10).every((m) => m.profileId.startsWith('CHILD'))).toBe(true);
    // Each threshold equal to a profile's own LR: that profile is kept only if no marker's best was skipped in the bound.
    for (const threshold of ranked.slice(0, 14).map((m) => m.combinedIndex!)) {
      const [children] = expectSameAsExactScans(index, [requestFor({ ...parentChild, threshold }, query)]);
      expect(children!.length).toBe(ranked.filter((m) => m.combinedIndex! >= threshold).length);
    }
  });

  it('weighs exactly only the profiles no LR-0 genotype rules out when those are few (Identity: a mismatch anywhere is LR 0)', () => {
    const query = profileGenerator(population, 61)();
    const index = database(67, query);
    const identity = seeded.find((a) => a.id === 'Identity')!;
    const request = requestFor(identity, query);
    const plan = planAnalysis(index, request)!;
    if (plan.kind !== 'computational') throw new Error('Identity is computational');
    // By brute force: the slots whose every marker's factor is finite (a mismatch, LR 0, is −∞).
    const codeAt = (p: (typeof plan.plans)[number], slot: number) => (p.lo[slot]! << p.shift) | p.hi[slot]!;
    let possible = 0;
    for (let slot = 0; slot < index.size; slot++) if (plan.plans.every((p) => p.table[codeAt(p, slot)]! !== -Infinity)) possible++;
    let weighed = 0;
    const matchAt = plan.matchAt;
    const counted = { ...plan, matchAt: (slot: number) => (weighed++, matchAt(slot)) };
    const [found] = fusedScan([counted]);
    expect(byProfile(found!)).toEqual(byProfile(scanAnalysis(index, request)));
    expect(found!.map((m) => m.profileId)).toContain('COPY');
    // The copy and the query itself at least; a sum filter alone weighs every profile matching a few markers (hundreds here).
    expect(possible).toBeGreaterThanOrEqual(2);
    expect(weighed).toBe(possible);
  });

  it('keeps the sum filter for an analysis no genotype rules out (full siblings: κ0 > 0) and gives the exact scan\'s answer', () => {
    const query = profileGenerator(population, 71)();
    const index = database(73, query);
    const request = requestFor(seeded.find((a) => a.id === 'Full siblings')!, query);
    const plan = planAnalysis(index, request)!;
    if (plan.kind !== 'computational') throw new Error('Full siblings is computational');
    expect(vetoPlans(plan.plans)).toBeNull();
    expectSameAsExactScans(index, [request]);
  });

  it('keeps the profiles an LR of 0 rules out when the threshold is 0 (an LR of 0 meets it)', () => {
    const query = profileGenerator(population, 79)();
    const index = database(83, query);
    const request = requestFor({ ...seeded.find((a) => a.id === 'Identity')!, threshold: 0 }, query);
    const [found] = expectSameAsExactScans(index, [request]);
    expect(found!.filter((m) => m.combinedIndex === 0).length).toBeGreaterThan(1000);
  });
});
