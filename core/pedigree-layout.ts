// A pedigree's layout, drawn by pedigree-diagram.ts: generations as rows (a founder who marries in sits on the
// row of the spouse), each row ordered so that siblings stay together and spouses side by side, then x
// positions settled by a few sweeps that centre children under their parents and parents over their
// children without ever reordering a row.

export interface DiagramPerson {
  id: string;
  sex: 'female' | 'male';
  father?: string | undefined;
  mother?: string | undefined;
}

const GAP = 100; // centre to centre of spouses and siblings
export const WIDE_GAP = 124; // centre to centre of persons of different sibships
const SWEEPS = 6;

export interface Layout {
  persons: DiagramPerson[];
  byId: Map<string, DiagramPerson>;
  row: Map<string, number>;
  rows: string[][];
  x: Map<string, number>;
  families: Family[];
}

/** A couple (or a lone parent) and their children as drawn. */
export interface Family {
  key: string;
  father: string | undefined;
  mother: string | undefined;
  children: string[];
}

/** Each person's row (0 at the top), the rows' order, x (order-preserving, in pixels) and the families as drawn; bad input (unknown parents, a person their own ancestor) is mended first. */
export function layPedigree(input: readonly DiagramPerson[]): Layout {
  // The first of a repeated name wins; a parent not in the list, or oneself, is not drawn as a parent.
  const byId = new Map<string, DiagramPerson>();
  for (const p of input) if (!byId.has(p.id)) byId.set(p.id, p);
  const persons = [...byId.values()].map((p) => ({
    id: p.id,
    sex: p.sex,
    father: p.father !== undefined && p.father !== p.id && byId.has(p.father) ? p.father : undefined,
    mother: p.mother !== undefined && p.mother !== p.id && byId.has(p.mother) ? p.mother : undefined,
  }));
  for (const p of persons) byId.set(p.id, p);
  breakCycles(persons, byId);
  const families = familiesOf(persons);
  const row = generations(persons, byId, families);
  const rows = orderRows(persons, byId, row, families);
  const x = placeRows(rows, byId, families);
  return { persons, byId, row, rows, x, families };
}

/** A person's or a family's parents that are known. */
export const parentsOf = (p: { father?: string | undefined; mother?: string | undefined }): string[] => [p.father, p.mother].filter((q): q is string => q !== undefined);
const familyKey = (p: DiagramPerson): string => `${p.father ?? ''}\u0000${p.mother ?? ''}`;

/** A person who is their own ancestor (bad input) loses the parent link that closes the loop, so drawing never hangs. */
function breakCycles(persons: DiagramPerson[], byId: Map<string, DiagramPerson>): void {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (p: DiagramPerson): void => {
    state.set(p.id, 'open');
    for (const link of ['father', 'mother'] as const) {
      const parent = p[link] === undefined ? undefined : byId.get(p[link]);
      if (parent === undefined) continue;
      if (state.get(parent.id) === 'open') p[link] = undefined;
      else if (!state.has(parent.id)) visit(parent);
    }
    state.set(p.id, 'done');
  };
  for (const p of persons) if (!state.has(p.id)) visit(p);
}

function familiesOf(persons: readonly DiagramPerson[]): Family[] {
  const families = new Map<string, Family>();
  for (const p of persons) {
    if (p.father === undefined && p.mother === undefined) continue;
    const key = familyKey(p);
    const family = families.get(key) ?? { key, father: p.father, mother: p.mother, children: [] };
    family.children.push(p.id);
    families.set(key, family);
  }
  return [...families.values()];
}

/** Rows: a child one below its lower parent; a founder one above its highest child (so one who marries in shares the spouse's row). */
function generations(persons: readonly DiagramPerson[], byId: Map<string, DiagramPerson>, families: readonly Family[]): Map<string, number> {
  const depth = new Map<string, number>();
  const depthOf = (p: DiagramPerson): number => {
    const known = depth.get(p.id);
    if (known !== undefined) return known;
    const d = Math.max(-1, ...parentsOf(p).map((q) => depthOf(byId.get(q)!))) + 1;
    depth.set(p.id, d);
    return d;
  };
  for (const p of persons) depthOf(p);
  const isFounder = (id: string): boolean => parentsOf(byId.get(id)!).length === 0;
  // A founder moves down to just above its highest child; a child then sits below its lower parent.
  for (let pass = 0; pass < persons.length; pass++) {
    let moved = false;
    for (const p of persons) {
      if (!isFounder(p.id)) continue;
      const childRows = families.filter((f) => f.father === p.id || f.mother === p.id).flatMap((f) => f.children.map((c) => depth.get(c)!));
      const wanted = childRows.length === 0 ? depth.get(p.id)! : Math.min(...childRows) - 1;
      if (wanted > depth.get(p.id)!) {
        depth.set(p.id, wanted);
        moved = true;
      }
    }
    for (const p of persons) {
      const parents = parentsOf(p);
      if (parents.length === 0) continue;
      const wanted = Math.max(...parents.map((q) => depth.get(q)!)) + 1;
      if (wanted !== depth.get(p.id)) {
        depth.set(p.id, wanted);
        moved = true;
      }
    }
    if (!moved) break;
  }
  const top = Math.min(...depth.values());
  for (const [id, d] of depth) depth.set(id, d - top);
  return depth;
}

/** Each person's partners: the other parents of their children, in the order the children come. */
function partnersOf(families: readonly Family[]): Map<string, string[]> {
  const partners = new Map<string, string[]>();
  const add = (a: string, b: string): void => {
    const list = partners.get(a) ?? [];
    if (!list.includes(b)) list.push(b);
    partners.set(a, list);
  };
  for (const f of families) {
    if (f.father === undefined || f.mother === undefined) continue;
    add(f.father, f.mother);
    add(f.mother, f.father);
  }
  return partners;
}

/**
 * Each row's order, top down: sibships in the order of their parents above, siblings with a spouse from another
 * sibship at that side, a spouse who marries in beside them (a second one on the other side), the rest after.
 */
function orderRows(persons: readonly DiagramPerson[], byId: Map<string, DiagramPerson>, row: Map<string, number>, families: readonly Family[]): string[][] {
  const partners = partnersOf(families);
  const inputIndex = new Map(persons.map((p, i) => [p.id, i]));
  const count = Math.max(-1, ...row.values()) + 1;
  const rows: string[][] = [];
  const provisional = new Map<string, number>();
  const isFounder = (id: string): boolean => parentsOf(byId.get(id)!).length === 0;

  for (let r = 0; r < count; r++) {
    const here = persons.filter((p) => row.get(p.id) === r).map((p) => p.id);
    const placed = new Set<string>();
    const order: string[] = [];
    const center = (f: Family): number => mean(parentsOf(f).map((q) => provisional.get(q) ?? 0));
    const sibships = families
      .map((f) => ({ family: f, children: f.children.filter((c) => row.get(c) === r) }))
      .filter((s) => s.children.length > 0)
      .sort((a, b) => center(a.family) - center(b.family) || inputIndex.get(a.children[0]!)! - inputIndex.get(b.children[0]!)!);
    const sibshipIndex = new Map<string, number>();
    sibships.forEach((s, i) => s.children.forEach((c) => sibshipIndex.set(c, i)));
    // A sibling married to someone of an earlier sibship goes first, of a later one last.
    const pull = (id: string): number => {
      const own = sibshipIndex.get(id)!;
      const other = (partners.get(id) ?? []).map((q) => sibshipIndex.get(q)).find((i) => i !== undefined && i !== own);
      return other === undefined ? 0 : Math.sign(other - own);
    };
    // Spouses who marry in (founders of this row) go beside their partner, outwards, with their own other partners.
    const withSpouses = (id: string): string[] => {
      placed.add(id);
      const spouses = (partners.get(id) ?? []).filter((q) => !placed.has(q) && isFounder(q) && row.get(q) === r);
      spouses.forEach((q) => placed.add(q));
      const chain = spouses.map((q) => ({ q, beyond: withSpousesOutward(q) }));
      if (chain.length === 1) return [id, chain[0]!.q, ...chain[0]!.beyond];
      const [first, ...rest] = chain;
      return [...(first === undefined ? [] : [...[...first.beyond].reverse(), first.q]), id, ...rest.flatMap((c) => [c.q, ...c.beyond])];
    };
    const withSpousesOutward = (id: string): string[] => {
      const spouses = (partners.get(id) ?? []).filter((q) => !placed.has(q) && isFounder(q) && row.get(q) === r);
      spouses.forEach((q) => placed.add(q));
      return spouses.flatMap((q) => [q, ...withSpousesOutward(q)]);
    };
    for (const s of sibships) {
      const children = s.children.map((c, i) => ({ c, i, pull: pull(c) })).sort((a, b) => a.pull - b.pull || a.i - b.i);
      for (const { c } of children) if (!placed.has(c)) order.push(...withSpouses(c));
    }
    // Founders not married into a sibship of this row: couples and chains of partners, in the order given.
    for (const id of here) {
      if (placed.has(id)) continue;
      const chainStart = startOfChain(id, partners, (q) => !placed.has(q) && row.get(q) === r, inputIndex, byId);
      order.push(...withSpouses(chainStart));
    }
    order.forEach((id, i) => provisional.set(id, i * GAP));
    rows.push(order);
  }
  return rows;
}

/** The end of a chain of partners to start a row's couple line from: the member with fewest partners, a man (drawn left, as usual), the first given. */
function startOfChain(id: string, partners: Map<string, string[]>, open: (id: string) => boolean, inputIndex: Map<string, number>, byId: Map<string, DiagramPerson>): string {
  const component = [id];
  for (let i = 0; i < component.length; i++) for (const q of partners.get(component[i]!) ?? []) if (open(q) && !component.includes(q)) component.push(q);
  const degree = (q: string): number => (partners.get(q) ?? []).filter(open).length;
  const male = (q: string): number => (byId.get(q)!.sex === 'male' ? 0 : 1);
  return component.sort((a, b) => degree(a) - degree(b) || male(a) - male(b) || inputIndex.get(a)! - inputIndex.get(b)!)[0]!;
}

/** x positions: alternate sweeps pull children under their parents and parents over their children, rows never reordered. */
function placeRows(rows: string[][], byId: Map<string, DiagramPerson>, families: readonly Family[]): Map<string, number> {
  const partners = partnersOf(families);
  const x = new Map<string, number>();
  const gaps = rows.map((order) => order.slice(1).map((id, i) => gapBetween(byId.get(order[i]!)!, byId.get(id)!, partners)));
  rows.forEach((order, r) => {
    let at = 0;
    order.forEach((id, i) => {
      if (i > 0) at += gaps[r]![i - 1]!;
      x.set(id, at);
    });
  });
  const indexInRow = new Map<string, number>();
  for (const order of rows) order.forEach((id, i) => indexInRow.set(id, i));

  const down = (r: number): void => {
    const order = rows[r]!;
    const wish = new Map<string, { at: number; weight: number }>();
    for (const id of order) {
      const p = byId.get(id)!;
      const parents = parentsOf(p);
      if (parents.length === 0) continue;
      const siblings = order.filter((q) => familyKey(byId.get(q)!) === familyKey(p));
      const k = siblings.indexOf(id);
      wish.set(id, { at: mean(parents.map((q) => x.get(q)!)) + (k - (siblings.length - 1) / 2) * GAP, weight: 1 });
    }
    for (const id of order) {
      if (wish.has(id)) continue;
      const partner = (partners.get(id) ?? []).find((q) => wish.has(q) && indexInRow.get(q) !== undefined && rows[r]!.includes(q));
      wish.set(id, partner === undefined ? { at: x.get(id)!, weight: 0.05 } : { at: wish.get(partner)!.at + Math.sign(indexInRow.get(id)! - indexInRow.get(partner)!) * GAP, weight: 1 });
    }
    settle(order, wish, gaps[r]!, x);
  };
  const up = (r: number): void => {
    const order = rows[r]!;
    const wish = new Map<string, { at: number; weight: number }>();
    for (const id of order) {
      const own = families.filter((f) => f.father === id || f.mother === id);
      if (own.length === 0) {
        wish.set(id, { at: x.get(id)!, weight: parentsOf(byId.get(id)!).length > 0 ? 0.5 : 0.1 });
        continue;
      }
      const targets = own.map((f) => {
        const xs = f.children.map((c) => x.get(c)!);
        const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
        const other = f.father === id ? f.mother : f.father;
        const side = other === undefined || !order.includes(other) ? 0 : Math.sign(indexInRow.get(id)! - indexInRow.get(other)!);
        return middle + (side * GAP) / 2;
      });
      wish.set(id, { at: mean(targets), weight: 1 });
    }
    settle(order, wish, gaps[r]!, x);
  };
  for (let r = 1; r < rows.length; r++) down(r);
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let r = rows.length - 2; r >= 0; r--) up(r);
    for (let r = 1; r < rows.length; r++) down(r);
  }
  return x;
}

function gapBetween(a: DiagramPerson, b: DiagramPerson, partners: Map<string, string[]>): number {
  const siblings = (a.father !== undefined || a.mother !== undefined) && familyKey(a) === familyKey(b);
  return siblings || (partners.get(a.id) ?? []).includes(b.id) ? GAP : WIDE_GAP;
}

/**
 * The positions closest to the wished ones (least squares, weighted) that keep the row's order and gaps: with
 * y_i = x_i − (gaps before i) the constraint is y non-decreasing, which pool-adjacent-violators solves exactly.
 */
function settle(order: readonly string[], wish: Map<string, { at: number; weight: number }>, gaps: readonly number[], x: Map<string, number>): void {
  const offsets: number[] = [];
  order.forEach((_, i) => offsets.push(i === 0 ? 0 : offsets[i - 1]! + gaps[i - 1]!));
  const pools: { value: number; weight: number; size: number }[] = [];
  order.forEach((id, i) => {
    const w = wish.get(id)!;
    pools.push({ value: w.at - offsets[i]!, weight: w.weight, size: 1 });
    while (pools.length > 1 && pools[pools.length - 2]!.value > pools[pools.length - 1]!.value) {
      const b = pools.pop()!;
      const a = pools.pop()!;
      const weight = a.weight + b.weight;
      pools.push({ value: (a.value * a.weight + b.value * b.weight) / weight, weight, size: a.size + b.size });
    }
  });
  let i = 0;
  for (const pool of pools) for (let k = 0; k < pool.size; k++, i++) x.set(order[i]!, pool.value + offsets[i]!);
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length);
