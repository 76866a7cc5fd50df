import { describe, expect, it } from 'vitest';
import { familyOf, fbi2015Population, profileGenerator } from '../../../bench/synthetic-profiles';

// The server bench plants missing persons among the remains and gives each family these relatives: they must be a
// real father, mother and full sister (Mendelian at every marker), or "planted missing persons found" means nothing.
describe('familyOf (a missing person\'s typed family)', () => {
  const population = fbi2015Population();
  const missing = profileGenerator(population, 7)();
  const family = familyOf(missing, population, 2_900_000);

  it('gives the missing person one allele from the father and the other from the mother at every marker', () => {
    for (const [marker, g] of missing) {
      const [a, b] = [g[0]!, g[g.length - 1]!];
      const father = family.get('father')!.get(marker)!;
      const mother = family.get('mother')!.get(marker)!;
      expect((father.includes(a) && mother.includes(b)) || (father.includes(b) && mother.includes(a)), marker).toBe(true);
    }
  });

  it('draws the sister from the same parents', () => {
    for (const marker of missing.keys()) {
      const sister = family.get('sister')!.get(marker)!;
      const [a, b] = [sister[0]!, sister[sister.length - 1]!];
      const father = family.get('father')!.get(marker)!;
      const mother = family.get('mother')!.get(marker)!;
      expect((father.includes(a) && mother.includes(b)) || (father.includes(b) && mother.includes(a)), marker).toBe(true);
    }
  });

  it('is the same family for the same seed (the bench run is repeatable)', () => {
    expect(familyOf(missing, population, 2_900_000)).toEqual(family);
    expect(familyOf(missing, population, 2_900_010)).not.toEqual(family);
  });
});
