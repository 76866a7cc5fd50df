import type { AnalysisPedigree } from '../../../core/schemas/analyses';
import type { PedigreePersonInput } from '../../../core/schemas/pedigrees';

/**
 * The pedigree editor's table. A row keeps its parents by row key, not by name, so renaming a person (one keystroke
 * at a time, through names other persons may have for a moment) never moves anyone's parents.
 */
export interface PersonRow {
  key: string;
  id: string;
  sex: 'female' | 'male';
  father: string | null;
  mother: string | null;
  /** A role: a profile is placed into this person. */
  typed: boolean;
}

export interface PedigreeRows {
  rows: PersonRow[];
  /** The tested person's row key (the missing person or person of interest). */
  target: string | null;
  /** H2 as stored when drawn out; kept as it is (null: the tested person unrelated). */
  alternative: PedigreePersonInput[] | null;
  nextKey: number;
}

/** The table of a stored pedigree and its roles (an absent pedigree: an empty table). */
export function rowsOf(pedigree: AnalysisPedigree | null | undefined, roles: readonly string[]): PedigreeRows {
  const persons = pedigree?.persons ?? [];
  const keyOf = new Map<string, string>();
  persons.forEach((p, i) => {
    if (!keyOf.has(p.id)) keyOf.set(p.id, `p${i}`);
  });
  const ref = (id: string | undefined) => (id === undefined ? null : (keyOf.get(id) ?? null));
  const rows = persons.map((p, i): PersonRow => ({ key: `p${i}`, id: p.id, sex: p.sex, father: ref(p.father), mother: ref(p.mother), typed: roles.includes(p.id) }));
  // Roles follow the table's order, so the typed persons' rows take the stored roles' order among themselves:
  // editing the pedigree then never reorders the roles of a stored analysis.
  const target = pedigree?.target;
  const slots = rows.flatMap((r, i) => (r.typed && r.id !== target ? [i] : []));
  const inRoleOrder = slots.map((i) => rows[i]!).sort((a, b) => roles.indexOf(a.id) - roles.indexOf(b.id));
  slots.forEach((slot, k) => (rows[slot] = inRoleOrder[k]!));
  return {
    rows,
    target: pedigree ? ref(pedigree.target) : null,
    alternative: pedigree?.alternative ?? null,
    nextKey: persons.length,
  };
}

/** What the form holds: the pedigree, and the roles (the typed persons in table order, the tested person first). */
export function pedigreeOf(state: PedigreeRows): { pedigree: AnalysisPedigree; roles: string[] } {
  const name = new Map(state.rows.map((r) => [r.key, r.id]));
  const persons = state.rows.map((r): PedigreePersonInput => {
    const person: PedigreePersonInput = { id: r.id, sex: r.sex };
    if (r.father !== null) person.father = name.get(r.father)!;
    if (r.mother !== null) person.mother = name.get(r.mother)!;
    return person;
  });
  const target = state.target === null ? undefined : state.rows.find((r) => r.key === state.target);
  const roles = [...(target ? [target.id] : []), ...state.rows.filter((r) => r.typed && r !== target).map((r) => r.id)];
  return { pedigree: { persons, target: target?.id ?? '', alternative: state.alternative }, roles };
}

const change = (state: PedigreeRows, key: string, patch: Partial<PersonRow>): PedigreeRows => ({
  ...state,
  rows: state.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)),
});

/** Adds a person named "Person n" (the first n free), with no parents. */
export function addPerson(state: PedigreeRows, sex: PersonRow['sex'] = 'male'): PedigreeRows {
  const names = new Set(state.rows.map((r) => r.id));
  let n = state.rows.length + 1;
  while (names.has(`Person ${n}`)) n++;
  const row: PersonRow = { key: `p${state.nextKey}`, id: `Person ${n}`, sex, father: null, mother: null, typed: false };
  return { ...state, rows: [...state.rows, row], nextKey: state.nextKey + 1 };
}

/** Removes a person; their children lose that parent, and the tested person is chosen again if it was them. */
export function removePerson(state: PedigreeRows, key: string): PedigreeRows {
  return {
    ...state,
    target: state.target === key ? null : state.target,
    rows: state.rows.filter((r) => r.key !== key).map((r) => ({ ...r, father: r.father === key ? null : r.father, mother: r.mother === key ? null : r.mother })),
  };
}

export const renamePerson = (state: PedigreeRows, key: string, id: string): PedigreeRows => change(state, key, { id });

/** A person's sex; children who had them as the parent of the other sex lose that parent. */
export function setSex(state: PedigreeRows, key: string, sex: PersonRow['sex']): PedigreeRows {
  const lost = sex === 'male' ? 'mother' : 'father';
  return { ...state, rows: state.rows.map((r) => (r.key === key ? { ...r, sex } : r[lost] === key ? { ...r, [lost]: null } : r)) };
}

export const setParent = (state: PedigreeRows, key: string, which: 'father' | 'mother', parent: string | null): PedigreeRows =>
  change(state, key, { [which]: parent });

/** Marks a person typed (a role) or not; the tested person is always typed, so untyping them leaves none chosen. */
export function setTyped(state: PedigreeRows, key: string, typed: boolean): PedigreeRows {
  return { ...change(state, key, { typed }), target: !typed && state.target === key ? null : state.target };
}

/** The tested person, who becomes typed (the role the searched profile takes). */
export const setTarget = (state: PedigreeRows, key: string): PedigreeRows => ({ ...change(state, key, { typed: true }), target: key });

/** The persons who may be `key`'s father or mother: the others of that sex, named. */
export const parentChoices = (state: PedigreeRows, key: string, which: 'father' | 'mother'): PersonRow[] =>
  state.rows.filter((r) => r.key !== key && r.id.trim() !== '' && r.sex === (which === 'father' ? 'male' : 'female'));
