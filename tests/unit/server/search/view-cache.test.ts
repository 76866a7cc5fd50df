import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Genotype } from '../../../../server/genetics/types';
import { IndexSet } from '../../../../server/matching/index-set';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import { ViewCache } from '../../../../server/search/view-cache';

const profile = (g: Record<string, Genotype>) => new Map(Object.entries(g));
const OFFENDERS = { organizationId: 'org-a', sampleType: 'Convicted Offender' };

/** What a search reads of an index: every slot's id and genotypes, the side list, the group counts. */
function contents(index: ProfileIndex) {
  const slots = Array.from({ length: index.size }, (_, slot) => [index.idAt(slot), index.genotypesOf(index.idAt(slot))]);
  return { slots, side: [...index.side.keys()], inA: index.countInGroups(index.groupMask((g) => g.organizationId === 'org-a')) };
}

function filled(n: number) {
  const index = new ProfileIndex('kit', 'Autosomal');
  const ids = Array.from({ length: n }, () => randomUUID());
  ids.forEach((id, i) => index.upsert(id, profile({ D3S1358: [String(12 + (i % 5)), String(14 + (i % 3))], vWA: [String(15 + (i % 4))] }), OFFENDERS));
  return { index, ids };
}

/** A task's snapshot as a worker receives it: a structured clone of a fresh pin. */
const sent = (index: ProfileIndex) => {
  const snapshot = structuredClone(index.pin());
  index.unpin();
  return snapshot;
};

describe("a search worker's views of the snapshots it is sent (issue 29)", () => {
  it('gives a task over the same snapshot the view made before, slice by slice, so a split search does not make them again', () => {
    const { index } = filled(200);
    const cache = new ViewCache();
    const first = IndexSet.view([sent(index)], { part: 1, of: 2 }, cache.view).indexes()[0]!;
    expect(IndexSet.view([sent(index)], { part: 1, of: 2 }, cache.view).indexes()[0]).toBe(first);
    // Another slice of it is another view.
    const other = IndexSet.view([sent(index)], { part: 0, of: 2 }, cache.view).indexes()[0]!;
    expect(other).not.toBe(first);
    expect([...contents(other).slots, ...contents(first).slots]).toEqual(contents(index).slots);
  });

  it('reads every edit made since: an append, a replacement, a removal in place and under a pin, a new capacity', () => {
    const { index, ids } = filled(200);
    const cache = new ViewCache();
    const read = () => contents(cache.view(sent(index)));
    expect(read()).toEqual(contents(index));
    index.upsert(randomUUID(), profile({ TH01: ['6'] }), OFFENDERS);
    expect(read()).toEqual(contents(index));
    index.upsert(ids[5]!, profile({ D3S1358: ['9'] }), OFFENDERS);
    expect(read()).toEqual(contents(index));
    index.remove(ids[7]!);
    expect(read()).toEqual(contents(index));
    const pinned = index.pin();
    index.remove(ids[8]!);
    expect(read()).toEqual(contents(index));
    expect(contents(cache.view(structuredClone(pinned)))).not.toEqual(contents(index));
    index.unpin();
    index.reserve(5000);
    expect(read()).toEqual(contents(index));
    index.upsert('mixture', profile({ D3S1358: ['14', '15', '16'] }), OFFENDERS);
    expect(read()).toEqual(contents(index));
  });

  it('forgets the views of memories the current task does not read', () => {
    const { index } = filled(50);
    const cache = new ViewCache();
    const before = cache.view(sent(index));
    cache.keep(['another memory']);
    expect(cache.view(sent(index))).not.toBe(before);
  });
});
