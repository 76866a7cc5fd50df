import type { Content, TableCell } from 'pdfmake/interfaces';
import type { AnalysisResult, MarkerResult, PopulationResult } from '../../core/schemas/analyses';
import { pedigreeSvg } from '../../core/pedigree-diagram';
import type { PedigreePersonInput } from '../../core/schemas/pedigrees';
import { formatScientific } from '../../core/scientific-display';
import { describeSexModels } from '../genetics/evaluate-pedigree';
import { frequencyCells } from './marker-frequencies';
import type { Hypotheses } from './report-conclusion';
import type { PopulationFacts } from './report-facts';

/**
 * The parts of an analysis report that only a pedigree run has (issue 16, GENETICS.md "Pedigrees"): the
 * hypotheses, the pedigree's persons, the mutation models and per marker both likelihoods and the verdict.
 */

type RunPedigree = NonNullable<AnalysisResult['pedigree']>;

const scientific = (value: number | null) => (value === null ? '' : formatScientific(value));

/** A person as the hypotheses name it: with the sample typed there, if the person is a role. */
export function typedName(result: AnalysisResult, person: string): string {
  const role = result.roles.find((r) => r.role === person);
  return role ? `${person} (${role.sampleName})` : person;
}

/** H2 as the analysis implies it (the tested person a founder and nobody's parent); false when H2 was drawn out. */
const h2SetsTargetApart = ({ h2, target }: RunPedigree): boolean =>
  h2.some((p) => p.id === target && !p.father && !p.mother) && !h2.some((p) => p.father === target || p.mother === target);

/** The two hypotheses in words; `h2Drawn` when H2 is a pedigree of its own, to be printed as well. */
export function hypotheses(result: AnalysisResult): { h1: string; h2: string; h2Drawn: boolean } {
  const pedigree = result.pedigree!;
  const target = typedName(result, pedigree.target);
  const h1 = `H1: the pedigree as drawn, ${target} the tested person.`;
  if (h2SetsTargetApart(pedigree)) return { h1, h2: `H2: ${target} is unrelated to the others; the rest of the pedigree as drawn.`, h2Drawn: false };
  return { h1, h2: 'H2: the alternative pedigree as drawn.', h2Drawn: true };
}

/** The hypotheses as clauses for the conclusion's sentences ("… more likely if <H1> than if <H2>"). */
export function pedigreeHypotheses(result: AnalysisResult): Hypotheses {
  const pedigree = result.pedigree!;
  const target = typedName(result, pedigree.target);
  const first = `${target} is the tested person of the pedigree as drawn`;
  if (h2SetsTargetApart(pedigree)) return { labels: ['H1', 'H2'], first, alternative: `${target} is unrelated to the others (the rest of the pedigree as drawn)` };
  return { labels: ['H1', 'H2'], first, alternative: 'the alternative pedigree as drawn holds' };
}

/** The mutation models in words: every marker's, then each marker with its own. */
export function mutationLines(result: AnalysisResult): string[] {
  const { mutation } = result;
  if (!mutation) return ['Mutation models: none (every transmission without mutation).'];
  return [`Mutation models, every marker: ${mutation.text}`, ...mutation.markers.map((m) => `Mutation models, ${m.marker}: ${describeSexModels(m)}`)];
}

export const PERSON_COLUMNS = ['Person', 'Sex', 'Father', 'Mother', 'Typed (profile)', 'Tested person'];

/** One row per person of a pedigree: its name, sex, parents, the profile typed there (its role) and whether it is the tested person. */
export function personRows(result: AnalysisResult, persons: readonly PedigreePersonInput[]): string[][] {
  return persons.map((p) => {
    const role = result.roles.find((r) => r.role === p.id);
    return [p.id, p.sex, p.father ?? '', p.mother ?? '', role ? `${role.sampleName} (case ${role.caseNumber})` : '', p.id === result.pedigree!.target ? 'yes' : ''];
  });
}

const bold = (text: string) => ({ text, bold: true });
const HIGHLIGHT: Record<string, string | undefined> = { 'needs a mutation': '#9a5b00', excluded: '#a33' };

/** A hypothesis's sentence above its pedigree as the calculator draws it (core/pedigree-diagram: typed persons grey, the tested person marked), kept on one page, then the table of its persons. */
export function pedigreeContent(result: AnalysisResult, hypothesis: string, persons: readonly PedigreePersonInput[]): Content[] {
  const svg = pedigreeSvg(persons, { typed: result.roles.map((r) => r.role), target: result.pedigree!.target });
  return [
    { stack: [hypothesis, { svg, fit: [523, 200], margin: [0, 4, 0, 2] }], unbreakable: true },
    {
      table: { headerRows: 1, widths: ['auto', 'auto', 'auto', 'auto', '*', 'auto'], body: [PERSON_COLUMNS.map(bold), ...personRows(result, persons)] },
      layout: 'lightHorizontalLines',
      margin: [0, 2, 0, 8],
    },
  ];
}

/** Per marker: the roles' genotypes, L(H1), L(H2), the LR and the verdict; a marker needing a mutation or excluding is marked. */
export function pedigreeMarkerTable(result: AnalysisResult, markers: readonly MarkerResult[], genotypeText: (g: string[] | null) => string, population?: PopulationFacts): Content {
  const header = ['Marker', ...result.roles.map((r) => r.role), 'Allele frequencies', 'N', 'L(H1)', 'L(H2)', 'LR', 'Verdict'].map(bold);
  const body = markers.map((m): TableCell[] => {
    const verdict = m.pedigree?.verdict;
    const color = verdict ? HIGHLIGHT[verdict] : undefined;
    const values: TableCell[] = m.pedigree
      ? [scientific(m.pedigree.likelihoodH1), scientific(m.pedigree.likelihoodH2), scientific(m.value), color ? { text: m.pedigree.verdict, bold: true, color } : m.pedigree.verdict]
      : [{ text: `not evaluated: ${m.notEvaluated ?? ''}`, italics: true, colSpan: 4 }, '', '', ''];
    return [color ? { text: m.marker, bold: true, color } : m.marker, ...m.genotypes.map(genotypeText), ...frequencyCells(m, population), ...values];
  });
  return { table: { headerRows: 1, widths: ['auto', ...result.roles.map(() => 'auto'), 'auto', 'auto', 'auto', 'auto', 'auto', '*'], body: [header, ...body] }, layout: 'lightHorizontalLines', margin: [0, 4, 0, 8] };
}

/** Under a population's LR: the markers needing a mutation and those excluding. */
export function markerListLines(population: PopulationResult): string[] {
  const needing = population.markersNeedingMutation ?? [];
  const excluded = population.excludedMarkers ?? [];
  return [
    `Markers needing a mutation: ${needing.length > 0 ? needing.join(', ') : 'none'}`,
    ...(excluded.length > 0 ? [`Excluded markers (no mutation model explains them; LR 0): ${excluded.join(', ')}`] : []),
  ];
}

/** The LR over each population side by side. */
export function lrPerPopulationTable(populations: readonly PopulationResult[]): Content {
  return {
    table: {
      headerRows: 1,
      widths: ['*', 'auto', 'auto'],
      body: [['Population', 'LR (H1 / H2)', 'log10 LR'].map(bold), ...populations.map((p) => [p.populationName, scientific(p.combinedIndex) || 'not evaluated', p.log10 === null ? '' : p.log10.toFixed(2)])],
    },
    layout: 'lightHorizontalLines',
    margin: [0, 2, 0, 8],
  };
}
