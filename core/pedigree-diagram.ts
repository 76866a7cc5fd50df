// A pedigree drawn as a standalone SVG document, the same in the analysis editor, the calculator and the PDF
// report; where each person stands comes from pedigree-layout.ts.
import { layPedigree, parentsOf, WIDE_GAP, type DiagramPerson, type Layout } from './pedigree-layout';

export type { DiagramPerson } from './pedigree-layout';

export interface PedigreeSvgOptions {
  /** Persons with a profile (the analysis's roles): filled grey. */
  typed?: readonly string[];
  /** The missing person or person of interest: red thick outline and an arrow. */
  target?: string;
}

const SIZE = 30; // a symbol's width and height
const HALF = SIZE / 2;
const ROW = 130; // centre to centre of generations
const MARGIN = 24;
const NAME_CHARS = 14; // what fits under a symbol at 11px
const NAME_LINES = 2;
const SIBSHIP_RISE = 26; // the sibship line above the children's symbols

/** The pedigree as an SVG document in the standard notation (Bennett et al. 1995, "Recommendations for standardized human pedigree nomenclature", Am J Hum Genet 56:745–752). */
export function pedigreeSvg(persons: readonly DiagramPerson[], options: PedigreeSvgOptions = {}): string {
  const layout = layPedigree(persons);
  const typed = new Set(options.typed ?? []);
  const xs = [...layout.x.values()];
  const left = Math.min(...xs, 0) - WIDE_GAP / 2;
  const right = Math.max(...xs, 0) + WIDE_GAP / 2;
  const width = round(right - left + 2 * MARGIN);
  // The lowest row's symbols and two lines of name, then the margin.
  const height = round(MARGIN + 8 + (Math.max(layout.rows.length, 1) - 1) * ROW + SIZE + 14 + NAME_LINES * 13 + MARGIN);
  const shiftX = MARGIN - left;
  const at = (id: string): { x: number; y: number } => ({ x: round(layout.x.get(id)! + shiftX), y: round(MARGIN + HALF + 8 + layout.row.get(id)! * ROW) });

  const lines = drawLines(layout, at);
  const symbols = layout.persons.map((p) => drawPerson(p, at(p.id), typed.has(p.id), p.id === options.target));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Pedigree" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<g fill="none" stroke="#222" stroke-width="1.5">`,
    ...lines,
    `</g>`,
    ...symbols,
    `</svg>`,
  ].join('\n');
}


function drawLines(layout: Layout, at: (id: string) => { x: number; y: number }): string[] {
  const lines: string[] = [];
  const sibshipSpans: { row: number; from: number; to: number; level: number }[] = [];
  for (const f of layout.families) {
    const parents = parentsOf(f);
    const children = f.children.map(at);
    const childRow = layout.row.get(f.children[0]!)!;
    let dropX: number;
    let dropY: number;
    if (parents.length === 2) {
      const [a, b] = [at(f.father!), at(f.mother!)].sort((p, q) => p.x - q.x) as [{ x: number; y: number }, { x: number; y: number }];
      const sameRow = a.y === b.y;
      lines.push(`<path data-couple="${escapeXml(f.father!)}|${escapeXml(f.mother!)}" d="M${round(a.x + HALF)} ${a.y}${sameRow ? `H${round(b.x - HALF)}` : `L${round(b.x - HALF)} ${b.y}`}"/>`);
      dropX = round((a.x + b.x) / 2);
      dropY = round((a.y + b.y) / 2);
    } else {
      const parent = at(parents[0]!);
      dropX = parent.x;
      dropY = round(parent.y + HALF);
    }
    const xs = [...children.map((c) => c.x), dropX];
    const from = Math.min(...xs);
    const to = Math.max(...xs);
    // Sibships of one row whose lines would overlap (half-siblings drawn across each other) are set a little apart.
    const level = sibshipSpans.filter((s) => s.row === childRow && s.from <= to + 4 && from <= s.to + 4).reduce((m, s) => Math.max(m, s.level + 1), 0);
    sibshipSpans.push({ row: childRow, from, to, level });
    const sibY = round(children[0]!.y - HALF - SIBSHIP_RISE + level * 7);
    const parts = [`M${dropX} ${dropY}V${sibY}`, `M${round(from)} ${sibY}H${round(to)}`, ...children.map((c) => `M${c.x} ${sibY}V${round(c.y - HALF)}`)];
    lines.push(`<path data-sibship="${escapeXml(f.father ?? '')}|${escapeXml(f.mother ?? '')}" d="${parts.join('')}"/>`);
  }
  return lines;
}

function drawPerson(p: DiagramPerson, { x, y }: { x: number; y: number }, typed: boolean, target: boolean): string {
  const fill = typed ? '#9e9e9e' : '#fff';
  const stroke = target ? 'stroke="#c62828" stroke-width="3.5"' : 'stroke="#222" stroke-width="1.5"';
  const shape =
    p.sex === 'male'
      ? `<rect x="${round(x - HALF)}" y="${round(y - HALF)}" width="${SIZE}" height="${SIZE}" fill="${fill}" ${stroke}/>`
      : `<circle cx="${x}" cy="${y}" r="${HALF}" fill="${fill}" ${stroke}/>`;
  // Bennett's proband arrow, from the left below the middle (clear of the name), for the person whose relationship is tested.
  const arrow = target
    ? `<path d="M${round(x - HALF - 26)} ${round(y + 12)}L${round(x - HALF - 6)} ${round(y + 3)}" stroke="#c62828" stroke-width="2.5"/><path d="M${round(x - HALF - 2)} ${round(y + 1)}l-10 -1l4 8z" fill="#c62828"/>`
    : '';
  const name = nameLines(p.id)
    .map((line, i) => `<text x="${x}" y="${round(y + HALF + 14 + i * 13)}" text-anchor="middle" fill="#000">${escapeXml(line)}</text>`)
    .join('');
  return `<g data-person="${escapeXml(p.id)}" data-sex="${p.sex}"${typed ? ' data-typed="true"' : ''}${target ? ' data-target="true"' : ''}><title>${escapeXml(p.id)}${target ? ' (tested person)' : ''}${typed ? ' (typed)' : ''}</title>${shape}${arrow}${name}</g>`;
}

/** A name in at most two lines of 14 characters, broken at spaces where it can be, shortened with … (the full name is in the title). */
export function nameLines(name: string): string[] {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (let word of words) {
    while (word.length > NAME_CHARS) {
      if (current !== '') lines.push(current);
      lines.push(word.slice(0, NAME_CHARS));
      word = word.slice(NAME_CHARS);
      current = '';
    }
    if (current === '') current = word;
    else if (current.length + 1 + word.length <= NAME_CHARS) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current !== '') lines.push(current);
  if (lines.length <= NAME_LINES) return lines;
  const kept = lines.slice(0, NAME_LINES);
  kept[NAME_LINES - 1] = `${kept[NAME_LINES - 1]!.slice(0, NAME_CHARS - 1)}…`;
  return kept;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const round = (value: number): number => Math.round(value * 10) / 10;
