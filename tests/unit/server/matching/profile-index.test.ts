import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IndexSet } from '../../../../server/matching/index-set';
import { START_SPARE } from '../../../../server/matching/load-indexes';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import { SlotIds } from '../../../../server/matching/slot-ids';
import type { Genotype } from '../../../../server/genetics/types';

const profile = (g: Record<string, Genotype>) => new Map(Object.entries(g));
const GROUP = { organizationId: 'org', sampleType: 'Convicted Offender' };

/** A seeded source (mulberry32), so a failing churn replays. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every held id maps to its slot and back; `expected` is the model (id → genotypes). */
function expectConsistent(index: ProfileIndex, expected: ReadonlyMap<string, ReadonlyMap<string, Genotype>>) {
  expect(index.size).toBe(expected.size);
  const seen = new Set<string>();
  for (let slot = 0; slot < index.size; slot++) {
    const id = index.idAt(slot);
    expect(index.slotOf(id)).toBe(slot);
    seen.add(id);
  }
  expect(seen).toEqual(new Set(expected.keys()));
  for (const [id, genotypes] of expected) expect(index.genotypesOf(id)).toEqual(genotypes);
}

describe('profile ids in the index (16 bytes per profile)', () => {
  it('gives back the ids it was given: database UUIDs, and any other text', () => {
    const index = new ProfileIndex('kit', 'Autosomal');
    const ids = [
      randomUUID(),
      '00000000-0000-0000-0000-000000000001',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      // Looks like the pattern other ids are stored as: kept apart all the same.
      'ffffffff-ffff-ffff-ffff-ffff00000000',
      'P1',
      'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      '',
      'not-a-uuid-but-36-characters-long!!!',
    ];
    for (const [i, id] of ids.entries()) index.upsert(id, profile({ D3S1358: ['9', String(20 + i)] }), GROUP);
    expect(ids.map((_, slot) => index.idAt(slot))).toEqual(ids);
    for (const [i, id] of ids.entries()) {
      expect(index.slotOf(id)).toBe(i);
      expect(index.has(id)).toBe(true);
      expect(index.genotypesOf(id)).toEqual(profile({ D3S1358: ['9', String(20 + i)] }));
    }
    expect(index.slotOf('P2')).toBe(-1);
    expect(index.slotOf(randomUUID())).toBe(-1);
    expect(index.has('ffffffff-ffff-ffff-ffff-ffff00000001')).toBe(false);
  });

  it('a removal moves the last slot into the hole, ids and columns together', () => {
    const index = new ProfileIndex('kit', 'Autosomal');
    const [a, b, c] = [randomUUID(), 'P2', randomUUID()];
    index.upsert(a, profile({ FGA: ['20', '22'] }), GROUP);
    index.upsert(b, profile({ FGA: ['21'] }), GROUP);
    index.upsert(c, profile({ FGA: ['23', '24'] }), GROUP);
    index.remove(a);
    expect([index.idAt(0), index.idAt(1)]).toEqual([c, b]);
    expect(index.slotOf(c)).toBe(0);
    expect(index.genotypesOf(c)).toEqual(profile({ FGA: ['23', '24'] }));
    expect(index.has(a)).toBe(false);
    index.remove(c);
    expect(index.idAt(0)).toBe(b);
    expect(index.genotypesOf(b)).toEqual(profile({ FGA: ['21'] }));
    index.remove(b);
    expect(index.size).toBe(0);
    expect(index.has(b)).toBe(false);
    // A removed other id's code is free again, and nothing of the old id comes back with it.
    index.upsert('P3', profile({ FGA: ['19'] }), GROUP);
    expect(index.idAt(0)).toBe('P3');
    expect(index.slotOf('P2')).toBe(-1);
  });

  it('re-approval after a reset replaces the profile; a changed chemistry moves it to its new index', () => {
    const set = new IndexSet();
    const id = randomUUID();
    const base = { id, kind: 'Autosomal' as const, organizationId: 'org', sampleType: 'Convicted Offender' };
    set.upsert({ ...base, chemistryId: 'GlobalFiler', genotypes: profile({ TH01: ['6', '9.3'] }) });
    set.upsert({ ...base, chemistryId: 'GlobalFiler', genotypes: profile({ TH01: ['7'] }) });
    expect(set.profileCount).toBe(1);
    expect(set.find(id)?.genotypes).toEqual(profile({ TH01: ['7'] }));
    set.remove(id);
    expect(set.profileCount).toBe(0);
    expect(set.find(id)).toBeUndefined();
    set.upsert({ ...base, chemistryId: 'GlobalFiler', genotypes: profile({ TH01: ['8'] }) });
    set.upsert({ ...base, chemistryId: 'Fusion', genotypes: profile({ TH01: ['9'] }) });
    expect(set.profileCount).toBe(1);
    expect(set.index('GlobalFiler', 'Autosomal').has(id)).toBe(false);
    expect(set.find(id)).toEqual({ index: set.index('Fusion', 'Autosomal'), genotypes: profile({ TH01: ['9'] }) });
    // A mixture lives in the side list, and moves the same way.
    set.upsert({ ...base, chemistryId: 'GlobalFiler', genotypes: profile({ TH01: ['6', '7', '8'] }) });
    expect(set.profileCount).toBe(1);
    expect(set.index('GlobalFiler', 'Autosomal').side.has(id)).toBe(true);
    expect(set.index('Fusion', 'Autosomal').has(id)).toBe(false);
    set.remove(id);
    expect(set.profileCount).toBe(0);
  });

  it('finds every profile after thousands of removals and re-approvals, through growth and trimming', () => {
    const random = seeded(15);
    const index = new ProfileIndex('kit', 'Autosomal');
    const model = new Map<string, ReadonlyMap<string, Genotype>>();
    const held: string[] = [];
    for (let step = 0; step < 12_000; step++) {
      if (held.length > 0 && random() < 0.45) {
        const at = Math.floor(random() * held.length);
        const id = held[at]!;
        held[at] = held[held.length - 1]!;
        held.pop();
        index.remove(id);
        model.delete(id);
      } else {
        // Mostly UUIDs; now and then a short id, or a profile that comes back.
        const id = held.length > 0 && random() < 0.05 ? held[Math.floor(random() * held.length)]! : random() < 0.1 ? `P${step}` : randomUUID();
        const genotypes = profile({ D8S1179: [String(8 + Math.floor(random() * 10))], vWA: [String(14 + (step % 5)), '19'] });
        if (!model.has(id)) held.push(id);
        index.upsert(id, genotypes, GROUP);
        model.set(id, genotypes);
      }
      if (step === 6000) index.trim();
    }
    expectConsistent(index, model);
    for (let i = 0; i < 200; i++) expect(index.has(randomUUID())).toBe(false);
  });

  it('the id table stays exact when nearly full and churned (removals shift probe clusters back)', () => {
    const random = seeded(7);
    const capacity = 700;
    const ids = new SlotIds(capacity);
    const slotOf = new Map<string, number>();
    // Ids that share their first words (time-ordered UUIDs do): the hash must mix all of them.
    const fresh = (i: number) => `018f3a2b-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;
    let next = 0;
    for (; next < capacity; next++) slotOf.set(fresh(next), ids.append(fresh(next)));
    for (let round = 0; round < 5000; round++) {
      const slot = Math.floor(random() * ids.size);
      const last = ids.idAt(ids.size - 1);
      slotOf.delete(ids.idAt(slot));
      ids.removeAt(slot);
      if (slot < ids.size) slotOf.set(last, slot);
      const id = random() < 0.2 ? `other-${next}` : fresh(next);
      next++;
      slotOf.set(id, ids.append(id));
    }
    for (const [id, slot] of slotOf) {
      expect(ids.slotOf(id)).toBe(slot);
      expect(ids.idAt(slot)).toBe(id);
    }
    expect(ids.slotOf(fresh(0))).toBe(-1);
    expect(() => ids.append(fresh(next))).toThrow(/no room/);
  });
});

describe('what the index holds per profile (issue 15: ≤ 64 bytes at 1M on 20 markers)', () => {
  const MARKERS = 20;
  const ALLELES = 12;
  function build(n: number, reserve: boolean): IndexSet {
    const random = seeded(2025);
    const set = new IndexSet();
    if (reserve) set.reserve('GlobalFiler', 'Autosomal', n);
    const sampleTypes = ['Convicted Offender', 'Arrestee', 'Forensic Unknown'];
    for (let i = 0; i < n; i++) {
      const genotypes = new Map<string, Genotype>();
      for (let m = 0; m < MARKERS; m++) {
        const [a, b] = [Math.floor(random() * ALLELES), Math.floor(random() * ALLELES)].sort((x, y) => x - y);
        genotypes.set(`M${m}`, a === b ? [String(a! + 5)] : [String(a! + 5), String(b! + 5)]);
      }
      set.upsert({ id: randomUUID(), kind: 'Autosomal', chemistryId: 'GlobalFiler', organizationId: `org${i % 3}`, sampleType: sampleTypes[i % 3]!, genotypes });
    }
    return set;
  }

  // The typed arrays are what the index is made of: 2 × 20 column bytes, a 2-byte group code, 16 bytes
  // of id, 4.6 bytes of id table (bench/index-memory.ts measures the process: 62.4 B at 1M).
  it('100,000 profiles loaded without reserving, then trimmed: ≤ 64 bytes of arrays per profile', () => {
    const set = build(100_000, false);
    const before = set.indexBytes() / set.profileCount;
    set.trim();
    const bytes = set.indexBytes() / set.profileCount;
    expect(bytes).toBeLessThanOrEqual(64);
    expect(bytes).toBeCloseTo(2 * MARKERS + 2 + 16 + 4 / 0.875, 1);
    // Growth spare room (a sixteenth at most at this size) counts before the trim.
    expect(before).toBeLessThanOrEqual(bytes * 1.0625 + 0.01);
    const index = set.index('GlobalFiler', 'Autosomal');
    expect(index.markerColumns()).toHaveLength(MARKERS);
    expect(index.slotOf(index.idAt(54_321))).toBe(54_321);
  }, 60_000);

  it('a start-up load keeps a sixty-fourth of room: the approvals after it add profiles without growing, and the id table for the growth is built ahead of it', () => {
    const set = build(100_000, false);
    set.trim(START_SPARE);
    expect(set.indexBytes() / set.profileCount).toBeLessThanOrEqual(64);
    const index = set.index('GlobalFiler', 'Autosomal');
    const column = index.markerColumns()[0]!.lo;
    const genotypes = new Map(index.markerColumns().map((c) => [c.name, ['11', '12']] as const));
    const add = (id: string) => set.upsert({ id, kind: 'Autosomal', chemistryId: 'GlobalFiler', organizationId: 'org', sampleType: 'Convicted Offender', genotypes });
    const room = Math.ceil(100_000 * START_SPARE);
    for (let i = 0; i < room; i++) add(`new-${i}`);
    // No growth yet: the same column arrays; but the id table is already the one for the next capacity.
    expect(index.markerColumns()[0]!.lo).toBe(column);
    const full = index.pin();
    index.unpin();
    expect(full.ids.tableCapacity).toBeGreaterThan(full.ids.capacity);
    add('one-more');
    const grown = index.pin();
    index.unpin();
    // The growth copied the arrays and kept the table built ahead (no rebuild on this call).
    expect(index.markerColumns()[0]!.lo).not.toBe(column);
    expect(grown.ids.capacity).toBe(full.ids.tableCapacity);
    expect(grown.ids.table).toBe(full.ids.table);
    for (const id of ['new-0', `new-${room - 1}`, 'one-more']) expect(index.idAt(index.slotOf(id))).toBe(id);
    expect(index.slotOf(index.idAt(54_321))).toBe(54_321);
  }, 60_000);

  it('the id table built ahead stays exact through removals and re-approvals while it is built', () => {
    const index = new ProfileIndex('kit', 'Autosomal');
    const genotypes = new Map([['M0', ['11', '12'] as Genotype]]);
    // The ids held, in an array with swap-removal (a copy of every id per step made this test quadratic).
    const held: string[] = [];
    const random = seeded(29);
    let next = 0;
    // Thousands of edits across many growths, each with its table built ahead while ids come and go.
    for (let step = 0; step < 60_000; step++) {
      if (held.length > 0 && random() < 0.3) {
        const at = Math.floor(random() * held.length);
        index.remove(held[at]!);
        held[at] = held[held.length - 1]!;
        held.pop();
      } else {
        const id = random() < 0.5 ? randomUUID() : `P${next++}`;
        index.upsert(id, genotypes, GROUP);
        held.push(id);
      }
      if (step % 997 === 0) for (const id of held) expect(index.idAt(index.slotOf(id))).toBe(id);
    }
    expect(index.size).toBe(held.length);
    for (const id of held) expect(index.idAt(index.slotOf(id))).toBe(id);
    expect(index.slotOf('P-never')).toBe(-1);
  }, 60_000);

  it('100,000 profiles with room reserved exactly: the same', () => {
    const set = build(100_000, true);
    expect(set.indexBytes() / set.profileCount).toBeLessThanOrEqual(64);
  }, 60_000);
});
