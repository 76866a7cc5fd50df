import { mutationMatrix, PedigreeError, pedigreeMarkerAlleles, targetGenotypeLr, type MutationModels, type PedigreePerson } from '../genetics/pedigree';
import { lrDistribution, OTHER_ALLELE, unrelatedGenotypeAtoms, type LrAtom, type LrDistribution } from '../genetics/statistics';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import type { ProfileIndex } from './profile-index';
import { fusedScan } from './fused-scan';
import { genotypeLrPlan, type GenotypeLr } from './genotype-lr-plan';

/** A family searched for its missing person: the pedigree, who is missing, the typed relatives, and how to weigh it. */
export interface FamilySearch {
  persons: readonly PedigreePerson[];
  /** The person of the pedigree the remains may be. */
  target: string;
  /** Each typed relative's genotypes by marker. */
  relatives: ReadonlyMap<string, ReadonlyMap<string, Genotype>>;
  population: PopulationFrequencies;
  models: (marker: string) => MutationModels;
  /** Kept when the LR over the compared markers reaches it. */
  threshold: number;
  minMarkers: number;
  /** Only profiles of these groups (ProfileIndex.groupMask): the remains categories of the organizations searched. */
  groups?: Uint8Array;
}

export interface FamilyMatch {
  profileId: string;
  lr: number;
  /** Markers both the candidate and at least one relative are typed at. */
  markerCount: number;
}

/** One marker's LR as a function of a candidate genotype (undefined: not compared there). */
type MarkerLr = GenotypeLr;

/** Whether a model can place the allele: step models need repeat numbers (pedmut refuses "OL" or "<8" there). */
const placeable = (models: MutationModels, allele: string) =>
  [models.female, models.male].every((m) => (m.model === 'stepwise' ? /^\d+(\.\d)?$/.test(allele) : m.model === 'onestep' ? /^\d+$/.test(allele) : true));

/**
 * The LR of every genotype at one marker for the family (server/genetics/pedigree targetGenotypeLr) over the
 * population's alleles and the relatives', rare ones at the minimum allele frequency: exactly the pedigree LR the
 * calculator gives for that candidate. A candidate allele outside that set is added for that candidate alone (a table
 * per such set, built once), as the calculator would add it. Not compared: a marker no relative is typed at, or where
 * a relative holds an allele the model cannot place; a candidate holding such an allele (OL under a stepwise model).
 */
function markerLr(search: FamilySearch, marker: string): MarkerLr | undefined {
  const typed = new Map([...search.relatives].flatMap(([person, g]) => (g.has(marker) ? [[person, g.get(marker)!] as const] : [])));
  if (typed.size === 0 || !search.population.markers.has(marker)) return undefined;
  const models = search.models(marker);
  const relativeAlleles = [...typed.values()].flat();
  if ([...typed.values()].some((g) => g.length > 2) || !relativeAlleles.every((a) => placeable(models, a))) return undefined;
  const tableFor = (extra: readonly string[]) => {
    const all = pedigreeMarkerAlleles(search.population, marker, [...relativeAlleles, ...extra]);
    const kept = all.alleles.flatMap((a, i) => (placeable(models, a) ? [i] : []));
    const [alleles, frequencies] = [kept.map((i) => all.alleles[i]!), kept.map((i) => all.frequencies[i]!)];
    const built = { alleles, frequencies, female: mutationMatrix(models.female, alleles, frequencies), male: mutationMatrix(models.male, alleles, frequencies) };
    return { at: new Map(alleles.map((a, i) => [a, i])), lr: targetGenotypeLr(search.persons, typed, search.target, built) };
  };
  let base: ReturnType<typeof tableFor>;
  try {
    base = tableFor([]);
  } catch (error) {
    // The relatives' genotypes are impossible together here (the calculator leaves the marker out, too).
    if (error instanceof PedigreeError) return undefined;
    throw error;
  }
  const withExtra = new Map<string, ReturnType<typeof tableFor>>();
  return (genotype) => {
    if (genotype.length < 1 || genotype.length > 2 || !genotype.every((a) => placeable(models, a))) return undefined;
    const extra = [...new Set(genotype.filter((a) => !base.at.has(a)))].sort();
    let table = base;
    if (extra.length > 0) {
      const key = extra.join('|');
      if (!withExtra.has(key)) withExtra.set(key, tableFor(extra));
      table = withExtra.get(key)!;
    }
    return table.lr(table.at.get(genotype[0]!)!, table.at.get(genotype[genotype.length - 1]!)!);
  };
}

/**
 * Every profile of an index weighed as the family's missing person (GENETICS.md "How the search reaches memory
 * speed"): per marker one table genotype → log10 LR, then the fused pass of the approval searches (an integer lane
 * that over-estimates the log10 sum, in WebAssembly) and each candidate it lets through confirmed exactly; kept at
 * LR ≥ threshold over at least `minMarkers` compared markers. A marker no relative is typed at is not compared.
 */
export function scanFamily(index: ProfileIndex, search: FamilySearch): FamilyMatch[] {
  const weigh = new Map<string, MarkerLr>();
  for (const column of index.markerColumns()) {
    const lr = markerLr(search, column.name);
    if (lr) weigh.set(column.name, lr);
  }
  const fusable = genotypeLrPlan(index, weigh, { cut: Math.log10(search.threshold), minMarkers: search.minMarkers, groups: search.groups });
  const found = fusable.plans.length === 0 ? [] : fusedScan([fusable])[0]!;
  return found.map((m) => ({ profileId: m.profileId, lr: m.combinedIndex!, markerCount: m.markerCount })).sort((x, y) => y.lr - x.lr);
}

/**
 * The distribution of the family's log10 LR for an UNRELATED remains profile (GENETICS.md "Expected chance hits";
 * Tippett et al. 1968): per marker the scan compares, the Hardy–Weinberg genotypes of the population (the
 * relatives' alleles included at the minimum frequency) each with the very LR the scan computes for it. The
 * candidate is taken as typed at every such marker.
 */
export function familyUnrelatedDistribution(search: FamilySearch, markers: Iterable<string>, step: number): LrDistribution {
  const atoms: LrAtom[][] = [];
  for (const marker of markers) {
    const lr = markerLr(search, marker);
    const frequencies = search.population.markers.get(marker);
    if (!lr || !frequencies || frequencies.frequencies.size === 0) continue;
    const relativeAlleles = [...search.relatives.values()].flatMap((g) => [...(g.get(marker) ?? [])]);
    // The unlisted alleles' mass, as an integer designation nobody here carries.
    let other = 9999;
    while (frequencies.frequencies.has(String(other)) || relativeAlleles.includes(String(other))) other++;
    atoms.push(
      unrelatedGenotypeAtoms(frequencies.frequencies, {
        extraAlleles: relativeAlleles,
        sampleSize: frequencies.sampleSize,
        minimumAlleleFrequency: search.population.minimumAlleleFrequency,
        lrOf: (g) => lr(g.map((a) => (a === OTHER_ALLELE ? String(other) : a))) ?? null,
      }),
    );
  }
  return lrDistribution(atoms, { step });
}
