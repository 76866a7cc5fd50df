import { orderPedigree, PedigreeError, type PedigreePerson } from './pedigree';

/** A pedigree analysis as stored: H1 as drawn, the tested person, and H2 when drawn out (GENETICS.md "Pedigrees"). */
export interface AnalysisPedigreeSpec {
  persons: readonly PedigreePerson[];
  target: string;
  alternative: readonly PedigreePerson[] | null;
}

/** Both hypotheses over the same typed persons, and the tested person. */
export interface PedigreeHypotheses {
  h1: PedigreePerson[];
  h2: PedigreePerson[];
  target: string;
}

/**
 * H2 "the tested person is unrelated to the family" (Egeland, Kling & Mostad 2016, §3.1): they become a founder,
 * and where they were a parent in H1 an unknown person of their sex takes their place. A typed person (`typed`, the
 * roles) left with no typed relative in H2 becomes a founder too, as forrel and Familias build "unrelated" — otherwise
 * a mutation model would act through their untyped parents under H2 (a parent–child duo: the child).
 */
export function targetUnrelated(persons: readonly PedigreePerson[], target: string, typed: readonly string[] = []): PedigreePerson[] {
  const tested = persons.find((p) => p.id === target);
  if (!tested) throw new PedigreeError(`The tested person ${target} is not in the pedigree.`);
  const standIn = `Unknown ${tested.sex === 'male' ? 'father' : 'mother'} (H2)`;
  if (persons.some((p) => p.id === standIn)) throw new PedigreeError(`Rename ${standIn}: H2 needs that name for the unknown parent.`);
  const isParent = persons.some((p) => p.father === target || p.mother === target);
  const h2 = persons.map((p): PedigreePerson => {
    if (p.id === target) return { id: p.id, sex: p.sex };
    if (p.father === target) return { ...p, father: standIn };
    if (p.mother === target) return { ...p, mother: standIn };
    return { ...p };
  });
  return foundersWhereAlone(isParent ? [...h2, { id: standIn, sex: tested.sex }] : h2, typed);
}

/**
 * Each typed person whose family (the persons linked to them through parents and children) holds no other typed
 * person, as a founder: P(their genotype) is then Hardy–Weinberg whatever the mutation model (forrel's singletons).
 * The untyped persons left without a typed relative change no likelihood and stay as drawn.
 */
function foundersWhereAlone(persons: PedigreePerson[], typed: readonly string[]): PedigreePerson[] {
  const linked = new Map<string, string[]>(persons.map((p) => [p.id, []]));
  for (const p of persons) {
    for (const parent of [p.father, p.mother]) {
      if (parent === undefined || !linked.has(parent)) continue;
      linked.get(p.id)!.push(parent);
      linked.get(parent)!.push(p.id);
    }
  }
  const familyOf = (id: string) => {
    const seen = new Set([id]);
    const queue = [id];
    while (queue.length > 0) for (const next of linked.get(queue.pop()!) ?? []) if (!seen.has(next)) (seen.add(next), queue.push(next));
    return seen;
  };
  const typedSet = new Set(typed);
  const alone = new Set(typed.filter((id) => linked.has(id) && [...familyOf(id)].every((other) => other === id || !typedSet.has(other))));
  return persons.map((p) => (alone.has(p.id) && p.father !== undefined ? { id: p.id, sex: p.sex } : p));
}

/**
 * The hypotheses of an analysis's pedigree, checked against its roles: both pedigrees valid, every role a person
 * of both, the tested person one of the roles. Throws PedigreeError naming what is wrong.
 */
export function analysisHypotheses(pedigree: AnalysisPedigreeSpec, roles: readonly string[]): PedigreeHypotheses {
  const h1 = orderPedigree(pedigree.persons).length > 0 ? pedigree.persons.map((p) => ({ ...p })) : [];
  if (!roles.includes(pedigree.target)) throw new PedigreeError(`The tested person ${pedigree.target} must be one of the roles (${roles.join(', ')}).`);
  const h2 = pedigree.alternative ? pedigree.alternative.map((p) => ({ ...p })) : targetUnrelated(h1, pedigree.target, roles);
  orderPedigree(h2);
  for (const role of roles) {
    if (!h1.some((p) => p.id === role)) throw new PedigreeError(`The role ${role} is not a person of the pedigree; name a person for each role.`);
    if (!h2.some((p) => p.id === role)) throw new PedigreeError(`The role ${role} is not a person of H2; both hypotheses hold every typed person.`);
  }
  if (new Set(roles).size !== roles.length) throw new PedigreeError('Each role names a different person.');
  return { h1, h2, target: pedigree.target };
}
