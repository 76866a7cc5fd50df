/** A person of a pedigree: sex, and both parents or none (a founder). */
export interface PedigreePerson {
  id: string;
  sex: 'female' | 'male';
  father?: string | undefined;
  mother?: string | undefined;
}

/** Why a pedigree cannot be used, naming the person. */
export class PedigreeError extends Error {}

/** Most persons a pedigree may hold (issue 16: "any pedigree of up to ~20 persons", with room for untyped links). */
export const MAX_PEDIGREE_PERSONS = 40;

/**
 * Checks a pedigree and returns its persons parents first: ids unique, both parents or none, the father male and the
 * mother female, every parent in the pedigree, no one their own ancestor (Elston & Stewart 1971 need a pedigree
 * that can be ordered so).
 */
export function orderPedigree(persons: readonly PedigreePerson[]): PedigreePerson[] {
  if (persons.length === 0) throw new PedigreeError('A pedigree needs at least one person.');
  if (persons.length > MAX_PEDIGREE_PERSONS) throw new PedigreeError(`A pedigree holds at most ${MAX_PEDIGREE_PERSONS} persons (${persons.length} given).`);
  const byId = new Map<string, PedigreePerson>();
  for (const p of persons) {
    if (!p.id.trim()) throw new PedigreeError('Every person of a pedigree needs a name.');
    if (byId.has(p.id)) throw new PedigreeError(`${p.id} appears twice in the pedigree.`);
    byId.set(p.id, p);
  }
  for (const p of persons) {
    if ((p.father === undefined) !== (p.mother === undefined)) throw new PedigreeError(`${p.id} has one parent; give both parents (an untyped one if unknown) or none.`);
    if (p.father === undefined) continue;
    const father = byId.get(p.father);
    const mother = byId.get(p.mother!);
    if (!father) throw new PedigreeError(`${p.id}'s father ${p.father} is not in the pedigree.`);
    if (!mother) throw new PedigreeError(`${p.id}'s mother ${p.mother} is not in the pedigree.`);
    if (father.sex !== 'male') throw new PedigreeError(`${p.id}'s father ${father.id} must be male.`);
    if (mother.sex !== 'female') throw new PedigreeError(`${p.id}'s mother ${mother.id} must be female.`);
  }
  const ordered: PedigreePerson[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: PedigreePerson) => {
    const seen = state.get(p.id);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new PedigreeError(`${p.id} is their own ancestor in the pedigree.`);
    state.set(p.id, 'visiting');
    if (p.father !== undefined) {
      visit(byId.get(p.father)!);
      visit(byId.get(p.mother!)!);
    }
    state.set(p.id, 'done');
    ordered.push(p);
  };
  for (const p of persons) visit(p);
  return ordered;
}
