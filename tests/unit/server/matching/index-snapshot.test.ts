import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IndexSet } from '../../../../server/matching/index-set';
import { searchIdentity } from '../../../../server/matching/identity-search';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import type { Genotype } from '../../../../server/genetics/types';

const profile = (g: Record<string, Genotype>) => new Map(Object.entries(g));
const OFFENDERS = { organizationId: 'org-a', sampleType: 'Convicted Offender' };
const STAINS = { organizationId: 'org-b', sampleType: 'Forensic Unknown' };

/** What a reader sees of an index: every slot's id and genotypes, the side list, the groups' counts. */
function contents(index: ProfileIndex) {
  const slots = Array.from({ length: index.size }, (_, slot) => [index.idAt(slot), index.genotypesOf(index.idAt(slot))]);
  const mask = index.groupMask((g) => g.organizationId === 'org-a');
  return { slots, side: [...index.side.keys()], inA: index.countInGroups(mask), slotOfEach: slots.map(([id]) => index.slotOf(id as string)) };
}

function filled(n: number) {
  const index = new ProfileIndex('kit', 'Autosomal');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = i % 7 === 0 ? `P${i}` : randomUUID();
    ids.push(id);
    index.upsert(id, profile({ D3S1358: [String(12 + (i % 5)), String(14 + (i % 3))], vWA: [String(15 + (i % 4))] }), i % 2 ? OFFENDERS : STAINS);
  }
  index.upsert('mixture', profile({ D3S1358: ['14', '15', '16'] }), STAINS);
  return { index, ids };
}

describe('a pinned snapshot of the index (the search workers read shared memory)', () => {
  it('reads exactly what the index holds, over the same shared arrays (no copy)', () => {
    const { index } = filled(300);
    const snapshot = index.pin();
    const view = ProfileIndex.view(structuredClone(snapshot));
    expect(contents(view)).toEqual(contents(index));
    expect(view.column('D3S1358')!.lo.buffer).toBeInstanceOf(SharedArrayBuffer);
    // The same memory: a byte written by the owner past the view's size is visible through the view's array.
    index.column('vWA')!.lo[index.size + 1] = 9;
    expect(view.column('vWA')!.lo[index.size + 1]).toBe(9);
  });

  it('is read through one memory object however often it arrives, so searches do not claim new working room each time', () => {
    const { index } = filled(3000);
    const query = profile({ D3S1358: ['12', '14'], vWA: ['15'] });
    const options = { stringency: 'moderate' as const, minMarkers: 1, maxMismatches: 0 };
    const search = () => searchIdentity(IndexSet.view([structuredClone(index.pin())]).indexes()[0]!, query, options);
    const first = search();
    const bytes = index.memoryBytes();
    // A worker receives a new WebAssembly.Memory object with every task (structured clone): each used to compile its
    // kernel and claim working room at the memory's end again, growing the index's memory with every search.
    for (let i = 0; i < 5; i++) expect(search()).toEqual(first);
    expect(index.memoryBytes()).toBe(bytes);
  });

  it('keeps its bytes while the owner removes, replaces and appends (copy on write), and the owner sees its edits', () => {
    const { index, ids } = filled(300);
    const before = contents(index);
    const snapshot = index.pin();
    index.remove(ids[3]!);
    index.upsert(ids[10]!, profile({ D3S1358: ['9'] }), STAINS);
    for (let i = 0; i < 50; i++) index.upsert(randomUUID(), profile({ TH01: ['6', '9.3'] }), OFFENDERS);
    index.remove('mixture');
    const view = ProfileIndex.view(snapshot);
    expect(contents(view)).toEqual(before);
    expect(index.has(ids[3]!)).toBe(false);
    expect(index.genotypesOf(ids[10]!)).toEqual(profile({ D3S1358: ['9'] }));
    expect(index.size).toBe(300 - 1 + 50);
    expect(view.slotOf(index.idAt(index.size - 1))).toBe(-1);
  });

  it('edits in place again once no search holds a snapshot', () => {
    const { index, ids } = filled(50);
    index.pin();
    index.unpin();
    const column = index.column('D3S1358')!;
    const buffer = column.lo.buffer;
    index.remove(ids[1]!);
    expect(column.lo.buffer).toBe(buffer);
  });

  it('copies once per pin, not once per edit', () => {
    const { index, ids } = filled(50);
    index.pin();
    index.remove(ids[1]!);
    const copied = index.column('D3S1358')!.lo.buffer;
    index.remove(ids[2]!);
    expect(index.column('D3S1358')!.lo.buffer).toBe(copied);
  });

  it('pins every index of a set and releases them once', () => {
    const set = new IndexSet();
    set.upsert({ id: 'a', kind: 'Autosomal', chemistryId: 'gf', organizationId: 'org-a', sampleType: 'Convicted Offender', genotypes: profile({ TH01: ['6'] }) });
    set.upsert({ id: 'y', kind: 'YStr', chemistryId: 'y23', organizationId: 'org-a', sampleType: 'Convicted Offender', genotypes: profile({ DYS19: ['14'] }) });
    const { snapshots, release } = set.pin('Autosomal');
    expect(snapshots.map((s) => s.chemistryId)).toEqual(['gf']);
    expect(IndexSet.view(snapshots).find('a')?.genotypes).toEqual(profile({ TH01: ['6'] }));
    expect(set.indexes('Autosomal')[0]!.pinned).toBe(1);
    release();
    release();
    expect(set.indexes('Autosomal')[0]!.pinned).toBe(0);
  });
});
