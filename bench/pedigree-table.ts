// The pedigree table of `npm run bench` (issue 16 "Speed").
import { pedigreeLr, type MutationModels, type PedigreePerson } from '../server/genetics/pedigree';
import type { Genotype } from '../server/genetics/types';
import { scanFamily } from '../server/matching/missing-person-scan';
import type { ProfileIndex } from '../server/matching/profile-index';
import { medianTiming, ms, percentile, perThread, printTable, time, timed, type Timing } from './bench-table';
import { benchId, population, QUERIES } from './engine-fixtures';
import { CODIS_CORE, familyOf } from './synthetic-profiles';

// Issue 16 "Speed": a missing-person family of three typed relatives (father, mother, full sister) searched against
// the whole index, and one pedigree LR of eight persons over the 20 markers, both with stepwise mutation.
const STEPWISE: MutationModels = { female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 }, male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 } };
const FAMILY: PedigreePerson[] = [
  { id: 'father', sex: 'male' },
  { id: 'mother', sex: 'female' },
  { id: 'sister', sex: 'female', father: 'father', mother: 'mother' },
  { id: 'MP', sex: 'male', father: 'father', mother: 'mother' },
];
export const FAMILY_QUERIES = 10;
/** Eight persons: grandparents, the father and an uncle, the mother, the missing person, a sister and the father's second wife. */
const EIGHT: PedigreePerson[] = [
  { id: 'gf', sex: 'male' },
  { id: 'gm', sex: 'female' },
  { id: 'father', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'uncle', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'mother', sex: 'female' },
  { id: 'MP', sex: 'male', father: 'father', mother: 'mother' },
  { id: 'sister', sex: 'female', father: 'father', mother: 'mother' },
  { id: 'wife', sex: 'female' },
];

/** The family searches and the eight-person LRs over one index of n profiles: the table's row. */
export function pedigreeRow(n: number, index: ProfileIndex, planted: readonly ReadonlyMap<string, Genotype>[], floor: Timing): string[] {
  const familySearch: Timing[] = [];
  let familyFirst = 0;
  // One family searched untimed first: a server's searches run compiled code (the pedigree tables' and the pass's).
  scanFamily(index, { persons: FAMILY, target: 'MP', relatives: familyOf(planted[FAMILY_QUERIES]!, population, 1500), population, models: () => STEPWISE, threshold: 1000, minMarkers: 8 });
  for (const [i, missing] of planted.slice(0, FAMILY_QUERIES).entries()) {
    const relatives = familyOf(missing, population, 1600 + i);
    let found: ReturnType<typeof scanFamily> = [];
    familySearch.push(timed(() => (found = scanFamily(index, { persons: FAMILY, target: 'MP', relatives, population, models: () => STEPWISE, threshold: 1000, minMarkers: 8 }))));
    if (found[0]?.profileId === benchId(i * Math.floor(n / QUERIES))) familyFirst++;
  }
  // Twenty families, each LR computed once untimed first: a server's calculator is warm (compiled code, built
  // mutation matrices), and a cold first call measures the JIT, not the pedigree.
  const eightLr: number[] = [];
  const apart: PedigreePerson[] = [...EIGHT.filter((p) => p.id !== 'MP'), { id: 'MP', sex: 'male' }];
  const eightCases = planted.slice(0, 20).map((missing, i) => {
    const relatives = familyOf(missing, population, 1700 + i);
    return new Map([...missing.keys()].map((marker) => [marker, new Map([['uncle', relatives.get('father')!.get(marker)!], ['mother', relatives.get('mother')!.get(marker)!], ['sister', relatives.get('sister')!.get(marker)!], ['MP', missing.get(marker)!]])]));
  });
  for (const genotypes of eightCases) pedigreeLr(EIGHT, apart, genotypes, population, STEPWISE);
  for (const genotypes of eightCases) eightLr.push(time(() => pedigreeLr(EIGHT, apart, genotypes, population, STEPWISE)));
  const family50 = medianTiming(familySearch);
  return [
    n.toLocaleString('en'),
    `${ms(family50.wall)} / ${ms(percentile(familySearch.map((t) => t.wall), 0.95))}`,
    perThread(family50, floor),
    `${familyFirst}/${FAMILY_QUERIES}`,
    `${ms(percentile(eightLr, 0.5))} / ${ms(percentile(eightLr, 0.95))}`,
  ];
}

export function printPedigreeTable(rows: string[][]): void {
  printTable(
    `\nPedigrees (issue 16): a family of 3 typed relatives (father, mother, full sister) searched for its missing son over the index, threshold 1000, stepwise mutation (female 0.001, male 0.003, rate2 1e-5, range 0.1); one pedigree LR of 8 persons over the ${CODIS_CORE.length} markers, same models, 20 families after one untimed round\n`,
    ['N', 'family search p50/p95', 'family search/floor CPU (wall)', 'true missing person first', 'pedigree LR (8 persons, 20 markers) p50/p95'],
    rows,
  );
}
