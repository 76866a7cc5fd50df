import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { SYNTHETIC_LABEL } from '../../core/chance-display';
import { conclusionText } from '../../core/parentage-conclusion';
import { formatScientific } from '../../core/scientific-display';
import type { AnalysisResult, MarkerResult, PopulationResult } from '../../core/schemas/analyses';
import { csvText } from '../exports/csv';
import { mixturePopulationContent, mixturePopulations, mixtureResultCsv, mixtureSections } from './analysis-mixture-report';
import { hypotheses, lrPerPopulationTable, markerListLines, mutationLines, PERSON_COLUMNS, pedigreeContent, pedigreeHypotheses, pedigreeMarkerTable, personRows } from './analysis-pedigree-report';
import { formulaHypotheses } from './formula-hypotheses';
import { formulaeUsedTable, formulaText } from './formulae-used';
import { frequencyCells } from './marker-frequencies';
import { profileFactsContent } from './profile-facts-content';
import { conclusionContent, type ConclusionPopulation, type Hypotheses } from './report-conclusion';
import type { PopulationFacts, ReportFacts } from './report-facts';
import { framedReport, reportTime, sectionHeading } from './report-frame';

/** A number as the CSV writes it: exponent form with three significant digits (1.23e+21), which a spreadsheet reads as a number. */
export const scientific = (value: number | null) => (value === null ? '' : value.toExponential(2));

/** A number as the PDF prints it: 11.8, 1.23 × 10²¹ (never 1.23e+21). */
const printed = (value: number | null) => (value === null ? '' : formatScientific(value));

const genotypeText = (g: string[] | null) => (g ? g.join(', ') : '—');

/** A population's name as the CSV writes it on each of its rows: a synthetic one says so (issue 12). */
const populationLabel = (p: Pick<PopulationResult, 'populationName' | 'synthetic'>) => (p.synthetic ? `${p.populationName} (${SYNTHETIC_LABEL})` : p.populationName);
const syntheticLabel = (synthetic: boolean): Content[] => (synthetic ? ['  ', { text: SYNTHETIC_LABEL, bold: true, color: '#9a5b00' }] : []);

/**
 * A pedigree run as CSV (issue 16): per population and marker the genotypes, L(H1), L(H2), LR, log10, verdict
 * and mutation models; then each population's LR and the markers needing a mutation; then the hypotheses, the
 * pedigree's persons and the mutation models, their text in the last column.
 */
function pedigreeResultCsv(result: AnalysisResult): string {
  const roles = result.roles.map((r) => `${r.role} (${r.sampleName})`);
  const header = ['Population', 'Marker', ...roles, 'L(H1)', 'L(H2)', 'LR', 'log10', 'Verdict', 'Mutation model', 'Not evaluated'];
  const blank = roles.map(() => '');
  const note = (population: string, label: string, text: string) => [population, label, ...blank, '', '', '', '', '', '', text];
  const rows: (string | number)[][] = [header];
  for (const p of result.populations) {
    const population = populationLabel(p);
    for (const m of p.markers) {
      const likelihoods = m.pedigree;
      rows.push([population, m.marker, ...m.genotypes.map(genotypeText), scientific(likelihoods?.likelihoodH1 ?? null), scientific(likelihoods?.likelihoodH2 ?? null), scientific(m.value), m.log10 === null ? '' : m.log10.toFixed(4), likelihoods?.verdict ?? '', likelihoods?.mutation ?? '', m.notEvaluated ?? '']);
    }
    rows.push([population, 'LR (H1 / H2)', ...blank, '', '', scientific(p.combinedIndex), p.log10 === null ? '' : p.log10.toFixed(4), '', '', p.probability]);
    rows.push(note(population, 'Markers needing a mutation', (p.markersNeedingMutation ?? []).join(' ')));
    rows.push(note(population, 'Excluded markers', (p.excludedMarkers ?? []).join(' ')));
  }
  const { h1, h2, h2Drawn } = hypotheses(result);
  const persons = (label: string, list: Parameters<typeof personRows>[1]) =>
    personRows(result, list).map((cells) => note('', label, cells.flatMap((cell, i) => (cell ? [`${PERSON_COLUMNS[i]}: ${cell}`] : [])).join('; ')));
  rows.push(note('', 'H1', h1), ...persons('H1 person', result.pedigree!.h1), note('', 'H2', h2));
  if (h2Drawn) rows.push(...persons('H2 person', result.pedigree!.h2));
  rows.push(...mutationLines(result).map((line) => note('', 'Mutation models', line)));
  return csvText(rows);
}

/** The calculator's result as CSV: one row per population and marker, then each population's combined index (a pedigree or mixture run: its own columns). */
export function analysisResultCsv(result: AnalysisResult): string {
  if (result.pedigree) return pedigreeResultCsv(result);
  if (result.kind === 'Mixture') return mixtureResultCsv(result);
  const roles = result.roles.map((r) => `${r.role} (${r.sampleName})`);
  const header = ['Population', 'Marker', ...roles, 'Pattern', 'Formula', 'Value', 'log10', 'Not evaluated'];
  const row = (population: string, m: MarkerResult) => [
    population,
    m.marker,
    ...m.genotypes.map(genotypeText),
    m.pattern ?? '',
    m.isExclusion === null ? (m.expression ?? '') : m.isExclusion ? 'Exclusion' : 'Non Exclusion',
    scientific(m.value),
    m.log10 === null ? '' : m.log10.toFixed(4),
    m.notEvaluated ?? '',
  ];
  const rows: (string | number)[][] = [header];
  for (const p of result.populations) {
    const population = populationLabel(p);
    rows.push(...p.markers.map((m) => row(population, m)));
    rows.push([population, 'Combined index', ...roles.map(() => ''), '', '', scientific(p.combinedIndex), p.log10 === null ? '' : p.log10.toFixed(4), p.probability]);
    if (p.conclusion) rows.push([population, 'Conclusion', ...roles.map(() => ''), '', '', '', '', conclusionText(p.conclusion)]);
  }
  if (result.exclusion) {
    rows.push(...result.exclusion.markers.map((m) => row('', m)));
    rows.push(['', 'Non-exclusion markers / markers compared', ...roles.map(() => ''), '', '', '', '', result.exclusion.probability]);
  }
  return csvText(rows);
}

function markerTable(result: AnalysisResult, markers: readonly MarkerResult[], inconsistent: readonly string[] = [], population?: PopulationFacts): Content {
  const exclusion = result.kind === 'Exclusion';
  const header = ['Marker', ...result.roles.map((r) => r.role), ...(exclusion ? [] : ['Allele frequencies', 'N']), 'Pattern', exclusion ? 'Decision' : 'LR'].map((text) => ({ text, bold: true }));
  const body = markers.map((m) => [
    // GENETICS.md "Parentage with inconsistencies": the markers counted against the relationship stand out.
    inconsistent.includes(m.marker) ? { text: `${m.marker} (inconsistent)`, bold: true, color: '#a33' } : m.marker,
    ...m.genotypes.map(genotypeText),
    ...(exclusion ? [] : frequencyCells(m, population)),
    m.pattern ?? '',
    m.notEvaluated ? { text: `not evaluated: ${m.notEvaluated}`, italics: true } : m.isExclusion === null ? printed(m.value) : m.isExclusion ? 'Exclusion' : 'Non Exclusion',
  ]);
  const widths = ['auto', ...result.roles.map(() => 'auto'), ...(exclusion ? [] : ['auto', 'auto']), '*', 'auto'];
  return { table: { headerRows: 1, dontBreakRows: true, widths, body: [header, ...body] }, layout: 'lightHorizontalLines', margin: [0, 4, 0, 8] };
}

/** A pedigree run's hypotheses as drawn (H1, and H2 when drawn out), mutation models and, over several populations, their LRs. */
function pedigreeSections(result: AnalysisResult): Content[] {
  const { h1, h2, h2Drawn } = hypotheses(result);
  const pedigree = result.pedigree!;
  return [
    { text: 'Hypotheses as drawn', fontSize: 12, bold: true, margin: [0, 4, 0, 2] },
    ...pedigreeContent(result, h1, pedigree.h1),
    ...(h2Drawn ? pedigreeContent(result, h2, pedigree.h2) : [{ text: h2, margin: [0, 0, 0, 8] } as Content]),
    { text: mutationLines(result).join('\n'), margin: [0, 0, 0, 8] },
    ...(result.populations.length > 1 ? [lrPerPopulationTable(result.populations)] : []),
  ];
}

/**
 * A same-source analysis, whose LR is also stated as a match probability "1 in X": two roles weighed by a
 * formula table without relationship constants (κ, μ). The seed Identity and Y-STR haplotype analyses are.
 */
const isIdentity = (result: AnalysisResult) =>
  result.kind === 'Computational' && !result.pedigree && result.roles.length === 2 && !result.constants.some((c) => /^(kappa|mu)/i.test(c.name));

/** The run's propositions: a pedigree's, a mixture's Hp and Hd, or two profiles' (none for an exclusion count). */
function runHypotheses(result: AnalysisResult, facts: ReportFacts | undefined): Hypotheses | null {
  if (result.kind === 'Exclusion') return null;
  if (result.pedigree) return pedigreeHypotheses(result);
  const mixture = mixturePopulations(result)[0]?.mixture.parameters;
  if (mixture) return { labels: ['Hp', 'Hd'], first: `the contributors are ${mixture.hp}`, alternative: `the contributors are ${mixture.hd}` };
  const yStr = facts?.profiles.some((p) => p.kind === 'YStr') ?? false;
  return formulaHypotheses(result.roles, { name: result.analysisName, label: result.analysisLabel }, isIdentity(result), yStr);
}

const runPopulations = (result: AnalysisResult): ConclusionPopulation[] =>
  result.populations.map((p) => ({ name: p.populationName, source: p.populationSource, synthetic: p.synthetic, lr: p.mixture ? p.mixture.lr : p.combinedIndex }));

/**
 * The calculator's result as a PDF a court can read (issue 18): the conclusion first (hypotheses, the LR per
 * population in words with its verbal equivalent, the analysis and its sources), the profiles with their kits,
 * reviewers, parties and items, then per population the marker table with the frequencies used and N, the
 * formulae once and the parameters; a mixture run's hypotheses, parameters and drop-out estimates (issue 17)
 * and a pedigree run's drawings stay; header, "Page n of m" and a signature block.
 */
export function analysisResultDocument(result: AnalysisResult, preparedBy: string, facts?: ReportFacts): TDocumentDefinitions {
  const conclusion = result.populations.find((p) => p.conclusion)?.conclusion;
  const content: Content[] = [
    { text: result.analysisName, fontSize: 16, bold: true },
    { text: `Computed ${reportTime(result.computedAt)} by ${preparedBy}`, margin: [0, 2, 0, 6] },
    ...conclusionContent({
      hypotheses: runHypotheses(result, facts),
      populations: runPopulations(result),
      identity: isIdentity(result),
      countResult: result.exclusion ? `Markers that do not exclude the relationship / markers compared: ${result.exclusion.probability}.` : null,
      qualifier: conclusion && result.populations.length === 1 ? { text: conclusionText(conclusion), excluded: conclusion.excluded } : null,
      analysis: { name: result.analysisName, label: result.analysisLabel },
      verbalScale: facts?.verbalScale ?? 'none',
    }),
    ...profileFactsContent(result.roles, facts?.profiles ?? []),
  ];
  if (result.pedigree) content.push(...pedigreeSections(result));
  if (result.kind === 'Mixture') content.push(...mixtureSections(result));
  if (result.missingPatterns.length > 0) content.push({ text: `Patterns without a formula (not evaluated): ${result.missingPatterns.join(', ')}`, color: '#a33', margin: [0, 0, 0, 8] });
  for (const p of result.populations) {
    content.push({ text: [`Per marker over ${p.populationName}`, ...syntheticLabel(p.synthetic)], fontSize: 12, bold: true, margin: [0, 6, 0, 2], headlineLevel: 1 });
    if (p.populationSource) content.push({ text: `Source: ${p.populationSource}` });
    // A mixture run (issue 17): its figures, estimates and marker table instead of formulae.
    if (p.mixture) {
      content.push(...mixturePopulationContent(result, { ...p, mixture: p.mixture }));
      continue;
    }
    const frequencies = facts?.populations.get(p.populationId);
    content.push(result.pedigree ? pedigreeMarkerTable(result, p.markers, genotypeText, frequencies) : markerTable(result, p.markers, p.conclusion?.inconsistentMarkers, frequencies));
    if (p.haplotypeCount) content.push({ text: `Haplotype count: ${p.haplotypeCount.matches} of ${p.haplotypeCount.total}; 95% upper bound ${printed(p.haplotypeCount.upperBound)}; frequency used ${printed(p.haplotypeCount.frequency)}` });
    content.push({ text: [`${result.pedigree ? 'LR (H1 / H2)' : 'Combined LR'}: ${printed(p.combinedIndex) || 'not evaluated'}`, ...syntheticLabel(p.synthetic)], bold: true, margin: [0, 0, 0, 8] });
    if (result.pedigree) content.push({ text: markerListLines(p).join('\n'), color: (p.excludedMarkers ?? []).length > 0 ? '#a33' : undefined, margin: [0, 0, 0, 8] });
    if (p.conclusion) content.push({ text: conclusionText(p.conclusion), bold: p.conclusion.excluded, color: p.conclusion.excluded ? '#a33' : undefined, margin: [0, 0, 0, 8] });
  }
  if (result.exclusion) {
    content.push(sectionHeading('Per marker', [0, 6, 0, 2]), markerTable(result, result.exclusion.markers));
    content.push({ text: `Non-exclusion markers / markers compared: ${result.exclusion.probability}`, bold: true });
  }
  const formulae = formulaeUsedTable(result.populations.flatMap((p) => p.markers));
  if (formulae) content.push(sectionHeading('Formulae used', [0, 6, 0, 2]), formulae);
  if (result.constants.length > 0) {
    content.push(
      sectionHeading('Parameters', [0, 6, 0, 2]),
      { table: { headerRows: 1, widths: ['auto', 'auto'], body: [[{ text: 'Parameter', bold: true }, { text: 'Value', bold: true }], ...result.constants.map((c) => [formulaText(c.name), String(c.value)])] }, layout: 'lightHorizontalLines' },
    );
  }
  // A pedigree of many roles, and a mixture's ten columns, need the page's width for the marker table.
  const wide = result.roles.length > 3 || result.kind === 'Mixture';
  return framedReport({
    title: result.analysisName,
    organizationName: facts?.organizationName ?? '',
    caseNumbers: result.roles.map((r) => r.caseNumber),
    subject: `Analysis ${result.analysisName}`,
    orientation: wide ? 'landscape' : 'portrait',
    content,
    signatures: [
      { part: 'Prepared by', name: preparedBy, date: reportTime(result.computedAt) },
      { part: 'Reviewed by', name: null, date: null },
    ],
  });
}
