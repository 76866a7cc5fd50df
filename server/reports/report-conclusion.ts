import type { Content } from 'pdfmake/interfaces';
import { SYNTHETIC_LABEL } from '../../core/chance-display';
import { formatScientific } from '../../core/scientific-display';
import { VERBAL_SCALES, verbalEquivalent } from '../../core/verbal-scale';

/** Points for the conclusion table's labels: "Allele frequencies" in bold at 8 pt, on one line. */
const LABEL_WIDTH = 90;

/**
 * The conclusion a court reads first (issue 18; ENFSI 2015 and SWGDAM 2018 both ask for the propositions, the LR
 * and its meaning in words together): the two hypotheses, per population the LR stated plainly with the
 * verbal equivalent on the laboratory's scale (and, for an identity analysis, the match probability as
 * "1 in X"), then the analysis and the allele frequencies it rests on, with their sources.
 */

/** Two competing propositions: their labels (H1/H2 or Hp/Hd) and each as a clause ("EVIDENCE-1 and … come from the same person"). */
export interface Hypotheses {
  labels: readonly [string, string];
  first: string;
  alternative: string;
}

/** One population's result for the conclusion; `lr` null: not evaluated there. */
export interface ConclusionPopulation {
  name: string;
  source: string;
  synthetic: boolean;
  lr: number | null;
  reported?: boolean;
}

export interface ConclusionInput {
  hypotheses: Hypotheses | null;
  populations: readonly ConclusionPopulation[];
  /** A same-source analysis: the match probability (1/LR) is stated as "1 in X" too. */
  identity: boolean;
  /** An exclusion analysis's result instead of an LR, e.g. "17 of 17 markers do not exclude …". */
  countResult?: string | null;
  /** A parentage conclusion or another plain statement that qualifies the LR (Excluded: n inconsistent markers). */
  qualifier?: { text: string; excluded: boolean } | null;
  analysis: { name: string; label: string };
  verbalScale: string;
}

const bold = (text: string) => ({ text, bold: true });
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The LR as a sentence: "The DNA results are 1.2 × 10⁹ times more likely if … than if …"; an LR below 1 the other way round; 0 excludes. */
export function lrSentence(lr: number, h: Hypotheses): string {
  if (lr === 0) return `The DNA results exclude that ${h.first} (LR 0).`;
  if (lr === 1) return `The DNA results are equally likely if ${h.first} and if ${h.alternative} (LR 1).`;
  const [times, more, less] = lr > 1 ? [lr, h.first, h.alternative] : [1 / lr, h.alternative, h.first];
  return `The DNA results are ${formatScientific(times, 2)} times more likely if ${more} than if ${less}.`;
}

/** The random match probability of a same-source LR: "1 in 1.2 × 10⁹". */
export const oneIn = (lr: number) => `1 in ${formatScientific(lr, 2)}`;

function populationParagraph(p: ConclusionPopulation, input: ConclusionInput): Content {
  const h = input.hypotheses;
  const synthetic: Content[] = p.synthetic ? ['  ', { text: SYNTHETIC_LABEL, bold: true, color: '#9a5b00' }] : [];
  if (p.lr === null || !h) return { text: [bold(`${p.name}: `), 'not evaluated.', ...synthetic], margin: [0, 0, 0, 4] };
  const verbal = verbalEquivalent(input.verbalScale, p.lr, `“${h.labels[0]}”`, `“${h.labels[1]}”`);
  const lines: Content[] = [bold(`${p.name}${p.reported ? ' (reported)' : ''}: `), lrSentence(p.lr, h)];
  if (input.identity && p.lr > 0) lines.push(` The probability that a person unrelated to the source, chosen at random from this population, has the same DNA profile is ${oneIn(p.lr)}.`);
  if (verbal) lines.push(' ', { text: verbal.sentence, italics: true });
  return { text: [...lines, ...synthetic], margin: [0, 0, 0, 4] };
}

/** The conclusion section: hypotheses, the LR per population in words, the analysis and the sources. */
export function conclusionContent(input: ConclusionInput): Content[] {
  const h = input.hypotheses;
  const content: Content[] = [{ text: 'Conclusion', fontSize: 13, bold: true, margin: [0, 4, 0, 4] }];
  if (h) {
    content.push({
      table: { widths: ['auto', '*'], body: [[bold(`${h.labels[0]}:`), capitalized(h.first)], [bold(`${h.labels[1]}:`), capitalized(h.alternative)]] },
      layout: 'noBorders',
      margin: [0, 0, 0, 6],
    });
  }
  if (input.countResult) content.push({ text: input.countResult, margin: [0, 0, 0, 4] });
  content.push(...input.populations.map((p) => populationParagraph(p, input)));
  if (input.qualifier) content.push({ text: input.qualifier.text, bold: input.qualifier.excluded, color: input.qualifier.excluded ? '#a33' : undefined, margin: [0, 0, 0, 4] });
  const scale = VERBAL_SCALES[input.verbalScale as keyof typeof VERBAL_SCALES];
  const sources = [...new Set(input.populations.map((p) => `${p.name}${p.source ? ` — ${p.source}` : ''}`))];
  content.push({
    table: {
      // The labels' column fixed: an 'auto' one shrank to its longest word beside a long list of populations, so
      // "Allele frequencies" broke over two lines.
      widths: [LABEL_WIDTH, '*'],
      body: [
        [bold('Analysis'), `${input.analysis.name}${input.analysis.label ? ` — ${input.analysis.label}` : ''}`],
        ...(sources.length > 0 ? [[bold('Allele frequencies'), sources.join('; ')]] : []),
        ...(scale && input.populations.some((p) => p.lr !== null && p.lr > 0) ? [[bold('Verbal scale'), scale.source]] : []),
      ],
    },
    layout: 'noBorders',
    fontSize: 8,
    margin: [0, 2, 0, 8],
  });
  return content;
}
