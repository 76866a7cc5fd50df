import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, seededRandom } from '../../../../bench/synthetic-profiles';
import { mutationMatrix, pedigreeLikelihood, pedigreeMarkerAlleles, type MutationModels, type PedigreePerson } from '../../../../server/genetics/pedigree';
import type { Genotype } from '../../../../server/genetics/types';
import { scanFamily } from '../../../../server/matching/missing-person-scan';
import { ProfileIndex } from '../../../../server/matching/profile-index';

const population = fbi2015Population();
const models: MutationModels = { female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 }, male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 } };
const random = seededRandom(1616);
const pick = (g: Genotype) => g[random() < 0.5 ? 0 : g.length - 1]!;
/** A child of two profiles: one allele from each, no mutation. */
const childOf = (father: ReadonlyMap<string, Genotype>, mother: ReadonlyMap<string, Genotype>) =>
  new Map([...father].map(([marker, g]) => {
    const pair = [pick(g), pick(mother.get(marker)!)].sort((a, b) => Number(a) - Number(b));
    return [marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
  }));

// The missing person (MP) with his typed mother and full sister; the father is untyped.
const family: PedigreePerson[] = [
  { id: 'father', sex: 'male' },
  { id: 'mother', sex: 'female' },
  { id: 'sister', sex: 'female', father: 'father', mother: 'mother' },
  { id: 'MP', sex: 'male', father: 'father', mother: 'mother' },
];

describe('missing-person search over the index (one LR table per marker, one scan)', () => {
  it('finds exactly the remains a direct pedigree computation keeps, with the same LR, and the true one first', () => {
    const generate = profileGenerator(population, 77);
    const [father, mother] = [generate(), generate()];
    const sister = childOf(father, mother);
    const truth = childOf(father, mother);
    const index = new ProfileIndex('GlobalFiler', 'Autosomal');
    const profiles = new Map<string, Map<string, Genotype>>([['TRUE-MP', truth]]);
    for (let i = 0; i < 400; i++) profiles.set(`UHR-${i}`, generate());
    // A partial profile and one with an allele no population holds (at the minimum frequency).
    profiles.set('PARTIAL', new Map([...truth].slice(0, 8)));
    profiles.set('RARE', new Map([...truth].map(([m, g]) => [m, m === 'TH01' ? ['13'] : g] as [string, Genotype])));
    for (const [id, g] of profiles) index.upsert(id, g);
    const relatives = new Map([['mother', mother], ['sister', sister]]);
    const search = { persons: family, target: 'MP', relatives, population, models: () => models, threshold: 1, minMarkers: 6 };
    const found = scanFamily(index, search);

    // The same by the pedigree engine, profile by profile: H1 the family with MP typed, H2 the remains unrelated.
    const apart: PedigreePerson[] = [...family, { id: 'remains', sex: 'male' }];
    const expected = [...profiles].flatMap(([id, g]) => {
      let lr = 1;
      let markerCount = 0;
      for (const [marker, genotype] of g) {
        const typed = new Map([...relatives].map(([p, r]) => [p, r.get(marker)!] as const));
        const { alleles, frequencies } = pedigreeMarkerAlleles(population, marker, [...[...typed.values()].flat(), ...genotype]);
        const built = { alleles, frequencies, female: mutationMatrix(models.female, alleles, frequencies), male: mutationMatrix(models.male, alleles, frequencies) };
        lr *= pedigreeLikelihood(family, new Map([...typed, ['MP', genotype]]), built) / pedigreeLikelihood(apart, new Map([...typed, ['remains', genotype]]), built);
        markerCount++;
      }
      return lr >= 1 && markerCount >= 6 ? [{ id, lr, markerCount }] : [];
    });
    expect(found.map((f) => f.profileId).sort()).toEqual(expected.map((e) => e.id).sort());
    for (const e of expected) {
      const f = found.find((x) => x.profileId === e.id)!;
      expect(Math.abs(f.lr - e.lr) / e.lr, e.id).toBeLessThan(1e-9);
      expect(f.markerCount).toBe(e.markerCount);
    }
    expect(found[0]!.profileId).toBe('TRUE-MP');
    expect(found[0]!.lr).toBeGreaterThan(1e6);
    expect(found.find((f) => f.profileId === 'PARTIAL')?.markerCount).toBe(8);
  });
});
