import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { type DiagramPerson, nameLines, pedigreeSvg } from '../../../core/pedigree-diagram';

const M = 'male' as const;
const F = 'female' as const;

// 'Mother and full sister' as seeded, listed child first (persons come in any order).
const SISTER: DiagramPerson[] = [
  { id: 'Missing person', sex: M, father: 'Father', mother: 'Mother' },
  { id: 'Full sister', sex: F, father: 'Father', mother: 'Mother' },
  { id: 'Mother', sex: F },
  { id: 'Father', sex: M },
];

// Three generations: grandparents; their son, who marries in a wife, and a daughter; the son's two children.
const THREE: DiagramPerson[] = [
  { id: 'Grandson', sex: M, father: 'Father', mother: 'Mother' },
  { id: 'Mother', sex: F },
  { id: 'Father', sex: M, father: 'Grandfather', mother: 'Grandmother' },
  { id: 'Granddaughter', sex: F, father: 'Father', mother: 'Mother' },
  { id: 'Aunt', sex: F, father: 'Grandfather', mother: 'Grandmother' },
  { id: 'Grandmother', sex: F },
  { id: 'Grandfather', sex: M },
];

// A man with two partners: two half-sibships.
const HALF: DiagramPerson[] = [
  { id: 'A1', sex: M, father: 'Man', mother: 'First wife' },
  { id: 'B1', sex: F, father: 'Man', mother: 'Second wife' },
  { id: 'Man', sex: M },
  { id: 'First wife', sex: F },
  { id: 'A2', sex: F, father: 'Man', mother: 'First wife' },
  { id: 'Second wife', sex: F },
];

interface Drawn {
  id: string;
  sex: string;
  shape: 'rect' | 'circle';
  x: number;
  y: number;
  title: string;
  names: string[];
  typed: boolean;
  target: boolean;
  stroke: string;
}

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (v === undefined ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', textNodeName: '#text', parseAttributeValue: false, parseTagValue: false });

function read(svg: string): { root: Node; persons: Drawn[]; couples: { key: string; d: string }[]; sibships: { key: string; d: string }[] } {
  expect(XMLValidator.validate(svg)).toBe(true);
  const root = (parser.parse(svg) as { svg: Node }).svg;
  const persons = list(root.g)
    .filter((g) => g['data-person'] !== undefined)
    .map((g): Drawn => {
      const rect = g.rect as Node | undefined;
      const circle = g.circle as Node | undefined;
      const shape = rect ? 'rect' : 'circle';
      const x = rect ? Number(rect.x) + Number(rect.width) / 2 : Number(circle!.cx);
      const y = rect ? Number(rect.y) + Number(rect.height) / 2 : Number(circle!.cy);
      return {
        id: String(g['data-person']),
        sex: String(g['data-sex']),
        shape,
        x,
        y,
        title: String(g.title),
        names: list(g.text).map((t) => String(t['#text'])),
        typed: g['data-typed'] === 'true',
        target: g['data-target'] === 'true',
        stroke: String((rect ?? circle)!.stroke),
      };
    });
  const paths = list((list(root.g).find((g) => g['data-person'] === undefined) ?? {}).path);
  const couples = paths.filter((p) => p['data-couple'] !== undefined).map((p) => ({ key: String(p['data-couple']), d: String(p.d) }));
  const sibships = paths.filter((p) => p['data-sibship'] !== undefined).map((p) => ({ key: String(p['data-sibship']), d: String(p.d) }));
  return { root, persons, couples, sibships };
}

const byId = (persons: Drawn[]): Map<string, Drawn> => new Map(persons.map((p) => [p.id, p]));
const numbers = (d: string): number[] => [...d.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));

describe('pedigreeSvg (Bennett et al. 1995 notation)', () => {
  it('is a standalone SVG document whose size and viewBox agree', () => {
    const svg = pedigreeSvg(SISTER);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const { root } = read(svg);
    expect(root.viewBox).toBe(`0 0 ${root.width} ${root.height}`);
    expect(Number(root.width)).toBeGreaterThan(0);
    expect(Number(root.height)).toBeGreaterThan(0);
  });

  it('draws every person once: males as squares, females as circles', () => {
    const { persons } = read(pedigreeSvg(THREE));
    expect(persons.map((p) => p.id).sort()).toEqual(THREE.map((p) => p.id).sort());
    for (const p of THREE) expect(persons.find((d) => d.id === p.id)!.shape).toBe(p.sex === 'male' ? 'rect' : 'circle');
  });

  it('joins each couple with a horizontal line from one symbol to the other', () => {
    const { persons, couples } = read(pedigreeSvg(SISTER));
    expect(couples.map((c) => c.key)).toEqual(['Father|Mother']);
    const at = byId(persons);
    const [father, mother] = [at.get('Father')!, at.get('Mother')!];
    expect(father.y).toBe(mother.y);
    const [x1, y, x2] = numbers(couples[0]!.d);
    expect(y).toBe(father.y);
    expect([x1, x2]).toEqual([Math.min(father.x, mother.x) + 15, Math.max(father.x, mother.x) - 15]);
  });

  it('puts children a row below their parents, on a sibship line reached from the couple line', () => {
    const { persons, sibships } = read(pedigreeSvg(SISTER));
    const at = byId(persons);
    const [father, mother] = [at.get('Father')!, at.get('Mother')!];
    for (const child of ['Missing person', 'Full sister']) expect(at.get(child)!.y).toBeGreaterThan(father.y);
    expect(sibships).toHaveLength(1);
    // M dropX coupleY V sibY M from sibY H to, then one drop per child
    const [dropX, dropY, sibY, from, sibY2, to] = numbers(sibships[0]!.d);
    expect(dropX).toBe((father.x + mother.x) / 2);
    expect(dropY).toBe(father.y);
    expect(sibY2).toBe(sibY);
    for (const child of ['Missing person', 'Full sister']) {
      expect(at.get(child)!.x).toBeGreaterThanOrEqual(from!);
      expect(at.get(child)!.x).toBeLessThanOrEqual(to!);
      expect(at.get(child)!.y).toBeGreaterThan(sibY!);
    }
  });

  it('lays three generations out as three rows, the wife who marries in on her husband\'s row', () => {
    const { persons } = read(pedigreeSvg(THREE));
    const at = byId(persons);
    const rowOf = (id: string): number => at.get(id)!.y;
    const rows = [...new Set(persons.map((p) => p.y))].sort((a, b) => a - b);
    expect(rows).toHaveLength(3);
    expect(['Grandfather', 'Grandmother'].map(rowOf)).toEqual([rows[0], rows[0]]);
    expect(['Father', 'Mother', 'Aunt'].map(rowOf)).toEqual([rows[1], rows[1], rows[1]]);
    expect(['Grandson', 'Granddaughter'].map(rowOf)).toEqual([rows[2], rows[2]]);
    // the spouses sit side by side, the sister on the husband's other side
    const row1 = persons.filter((p) => p.y === rows[1]).sort((a, b) => a.x - b.x).map((p) => p.id);
    expect(Math.abs(row1.indexOf('Father') - row1.indexOf('Mother'))).toBe(1);
  });

  it('draws half-siblings under a man with two partners, one on each side of him', () => {
    const { persons, couples, sibships } = read(pedigreeSvg(HALF));
    expect(couples.map((c) => c.key).sort()).toEqual(['Man|First wife', 'Man|Second wife']);
    expect(sibships).toHaveLength(2);
    const top = persons.filter((p) => p.y === Math.min(...persons.map((q) => q.y))).sort((a, b) => a.x - b.x);
    expect(top.map((p) => p.id)).toEqual(['First wife', 'Man', 'Second wife']);
    const at = byId(persons);
    // each half-sibship stays on its mother's side
    expect(Math.max(at.get('A1')!.x, at.get('A2')!.x)).toBeLessThan(at.get('B1')!.x);
  });

  it('escapes <, & and " in names, in the text, the title and the attribute', () => {
    const name = 'Tom <&"Jr">';
    const svg = pedigreeSvg([{ id: name, sex: M, father: 'F', mother: 'M' }, { id: 'F', sex: M }, { id: 'M', sex: F }], { typed: [name], target: name });
    expect(svg).not.toContain(name);
    expect(svg).toContain('Tom &lt;&amp;&quot;Jr&quot;&gt;');
    const { persons, couples } = read(svg);
    const tom = persons.find((p) => p.id === name)!;
    expect(tom.names).toEqual([name]);
    expect(tom.title).toContain(name);
    expect(couples[0]!.key).toBe('F|M');
  });

  it('fills typed persons grey and marks the tested person with a red outline and an arrow', () => {
    const svg = pedigreeSvg(SISTER, { typed: ['Missing person', 'Mother', 'Full sister'], target: 'Missing person' });
    const { persons } = read(svg);
    const at = byId(persons);
    expect(persons.filter((p) => p.typed).map((p) => p.id).sort()).toEqual(['Full sister', 'Missing person', 'Mother']);
    expect(at.get('Missing person')!.target).toBe(true);
    expect(at.get('Missing person')!.stroke).toBe('#c62828');
    expect(at.get('Mother')!.stroke).not.toBe('#c62828');
    expect(svg).toMatch(/data-target="true"[^]*fill="#c62828"/);
  });

  it('wraps a long name on two lines and shortens a longer one, the full name kept in the title', () => {
    expect(nameLines('Paternal grandmother')).toEqual(['Paternal', 'grandmother']);
    const long = 'Half brother of the missing person on the father side';
    const lines = nameLines(long);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(lines.every((l) => l.length <= 14)).toBe(true);
    const { persons } = read(pedigreeSvg([{ id: long, sex: F }]));
    expect(persons[0]!.title).toBe(long);
  });

  it('draws 40 persons in any order, the same drawing for the same input, no two symbols of a row overlapping', () => {
    const persons: DiagramPerson[] = [{ id: 'G0m', sex: M }, { id: 'G0f', sex: F }];
    const grow = (father: string, mother: string, depth: number): void => {
      for (let i = 0; i < 3 && persons.length < 40; i++) {
        const child: DiagramPerson = { id: `Child ${persons.length}`, sex: i % 2 ? F : M, father, mother };
        persons.push(child);
        if (depth < 2 && persons.length < 39) {
          const spouse: DiagramPerson = { id: `Spouse ${persons.length}`, sex: child.sex === M ? F : M };
          persons.push(spouse);
          grow(child.sex === M ? child.id : spouse.id, child.sex === M ? spouse.id : child.id, depth + 1);
        }
      }
    };
    grow('G0m', 'G0f', 0);
    expect(persons).toHaveLength(40);
    const shuffled = [...persons].reverse();
    expect(pedigreeSvg(shuffled)).toBe(pedigreeSvg(shuffled));
    for (const order of [persons, shuffled]) {
      const drawn = read(pedigreeSvg(order)).persons;
      expect(drawn).toHaveLength(40);
      const rows = new Map<number, number[]>();
      for (const p of drawn) rows.set(p.y, [...(rows.get(p.y) ?? []), p.x]);
      expect(rows.size).toBe(4);
      for (const xs of rows.values()) {
        xs.sort((a, b) => a - b);
        for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(90);
      }
      const at = byId(drawn);
      for (const p of order) if (p.father) expect(at.get(p.id)!.y).toBeGreaterThan(at.get(p.father)!.y);
    }
  });

  it('draws bad input without hanging: a parent not listed, a person their own ancestor', () => {
    const { persons } = read(
      pedigreeSvg([
        { id: 'A', sex: M, father: 'B', mother: 'Nobody' },
        { id: 'B', sex: M, father: 'A' },
      ]),
    );
    expect(persons.map((p) => p.id).sort()).toEqual(['A', 'B']);
  });
});
