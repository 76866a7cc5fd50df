import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatBracket, formatExpectedChanceHits, formatPValue, SYNTHETIC_LABEL } from '../../core/chance-display';
import { NOT_WEIGHED_REASON, notWeighedText, WEIGHED_AGAIN_LABEL, type WeighedHit } from '../../core/hit-weighing';
import { conclusionText } from '../../core/parentage-conclusion';
import { reportedChance } from '../../core/reported-chance';
import { formatScientific } from '../../core/scientific-display';
import type { AnalysisPedigree, AnalysisResult, MarkerResult } from '../../core/schemas/analyses';
import { MATCH_KIND_LABELS, type HitFigures, type PopulationFigures } from '../../core/schemas/hit-figures';
import { STRINGENCY_LABELS } from '../../core/schemas/search-rules';
import { HIT_STATUS_LABELS, type HitView } from '../../core/schemas/hits';
import { targetUnrelated } from '../genetics/pedigree/analysis-hypotheses';
import { hypotheses, pedigreeContent, pedigreeHypotheses, pedigreeMarkerTable } from './analysis-pedigree-report';
import { formulaeUsedTable, formulaText } from './formulae-used';
import { frequencyCells } from './marker-frequencies';
import { profileFactsContent } from './profile-facts-content';
import { conclusionContent, type ConclusionPopulation, type Hypotheses } from './report-conclusion';
import type { ReportFacts } from './report-facts';
import { framedReport, reportTime, sectionHeading, type Signature } from './report-frame';
import { formulaHypotheses } from './formula-hypotheses';

/** What the hit report adds to the HitView: who the laboratory is, who printed it, and the references. */
export interface HitReportContext {
  organizationName: string;
  preparedBy: string;
  preparedAt: Date;
  citations: readonly string[];
  /** A pedigree hit's analysis pedigree (H1 as drawn, the tested person, H2 if drawn out): printed as persons and a diagram. */
  pedigree?: AnalysisPedigree | null;
  /** The profiles' kits, parties, items and reviewers, the populations' frequencies and the verbal scale (none: not printed). */
  facts?: ReportFacts;
}

/** A number as the hit report prints it (never 1.18e+1). */
const sci = (value: number | null) => (value === null ? '' : formatScientific(value));
/** A chance figure (p-value, expected chance hits): two significant digits, as the screens show it. */
const chance2 = (value: number) => formatScientific(value, 2);

/** What found the hit: a missing-person family's search, or a search rule (perhaps deleted since). */
const foundBy = (hit: HitView['hit']): Content[] =>
  hit.familyId !== null
    ? [bold('Found by the search of the missing-person family: '), hit.familyName ?? 'a family since deleted']
    : [bold('Found by the search rule: '), hit.searchRuleName ?? 'a rule since deleted'];

const bold = (text: string) => ({ text, bold: true });
const heading = (text: string): Content => sectionHeading(text);
const table = (widths: (string | number)[], header: string[], body: TableCell[][]): Content => ({
  table: { headerRows: 1, widths, body: [header.map(bold), ...body] },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 6],
});

/** The label every synthetic figure carries (issue 12), beside it. */
const syntheticTag: Content = { text: SYNTHETIC_LABEL, bold: true, color: '#9a5b00' };
const syntheticLabel = (synthetic: boolean): Content[] => (synthetic ? ['  ', syntheticTag] : []);

/** Every population side by side, as HitView shows them: the reported one marked, synthetic ones labelled. */
function populationRow(p: PopulationFigures): TableCell[] {
  const chance = p.chance;
  return [
    { text: [p.populationName ?? 'None', ...(p.reported ? [{ text: ' (reported)', italics: true }] : []), ...(p.synthetic ? ['\n', syntheticTag] : [])] },
    p.combinedIndex === null ? p.probability : sci(p.combinedIndex),
    p.log10 === null ? '—' : p.log10.toFixed(2),
    chance?.pValue == null ? '—' : { text: [formatPValue(chance.pValue, chance2), ...(chance.pValueBracket ? [{ text: `\n${formatBracket(chance.pValueBracket, chance2)}`, fontSize: 7, color: '#555' }] : [])] },
    chance ? formatExpectedChanceHits(chance.expectedChanceHits, chance.searchedProfiles, undefined, chance2) : '—',
  ];
}

/**
 * The populations table and, for an identity rule, the stringency counts with the chance an unrelated profile meets
 * them; a hit no population weighed (issue 30) says so in place of the table and of both chances.
 */
function chanceSections(hit: WeighedHit & { figures: HitFigures }): Content[] {
  const { figures } = hit;
  const notWeighed = notWeighedText(hit);
  const content: Content[] = [
    heading('Search statistics per population'),
    notWeighed
      ? { text: `${notWeighed}.`, bold: true, margin: [0, 2, 0, 6] }
      : table(['*', 70, 40, 110, 110], ['Population', 'Likelihood ratio', 'log10 LR', 'p-value', 'Expected chance hits'], figures.populations.map(populationRow)),
  ];
  const s = figures.stringency;
  if (s) {
    const synthetic = syntheticLabel(figures.populations.some((p) => p.synthetic));
    const chance = (value: Content[]): Content => (notWeighed ? { text: `N${NOT_WEIGHED_REASON.slice(1)}`, italics: true } : { text: value });
    content.push(
      heading('Stringency'),
      {
        table: {
          widths: [170, '*'],
          body: [
            [bold('Stringency'), STRINGENCY_LABELS[s.stringency]],
            [bold('Markers compared'), `${s.comparedMarkers} (at least ${s.minMarkers} required)`],
            [bold('Mismatches'), `${s.mismatches} (at most ${s.maxMismatches} allowed)`],
            [bold('Chance an unrelated profile meets it'), chance([chance2(s.probability), ...synthetic])],
            [bold('Expected chance hits'), chance([formatExpectedChanceHits(s.expectedChanceHits, s.searchedProfiles, undefined, chance2), ...synthetic])],
          ],
        },
        layout: 'noBorders',
        margin: [0, 2, 0, 6],
      },
    );
  }
  return content;
}

/** A formula-table marker: the alleles of each role, the frequencies used and N, the pattern and the marker's value (its formula is listed once). */
function markerRow(m: MarkerResult, population: Parameters<typeof frequencyCells>[1]): TableCell[] {
  const decision = m.isExclusion === null ? sci(m.value) : m.isExclusion ? 'Exclusion' : 'Non Exclusion';
  return [
    m.marker,
    ...m.genotypes.map((g) => (g ? g.join(', ') : '—')),
    ...frequencyCells(m, population),
    m.pattern ?? '',
    m.notEvaluated ? { text: `not evaluated: ${m.notEvaluated}`, italics: true } : decision,
  ];
}

/** A hit weighed by a pedigree (issue 16: a family's hit): its markers carry both likelihoods and a verdict. */
const isPedigreeHit = (view: HitView) => view.analysis.kind === 'Pedigree' || view.markers.some((m) => m.pedigree);

/** The hit as the calculator's result of its pedigree, so the analysis report's pedigree parts print it the same way. */
function asPedigreeResult(view: HitView, pedigree: AnalysisPedigree | null | undefined): AnalysisResult {
  const { hit, analysis } = view;
  return {
    analysisId: analysis.id,
    analysisName: analysis.name,
    analysisLabel: analysis.label,
    kind: analysis.kind,
    roles: hit.profiles.map(({ role, profileId, sampleName, caseId, caseNumber }) => ({ role, profileId, sampleName, caseId, caseNumber })),
    constants: view.constants,
    missingPatterns: [],
    populations: [],
    exclusion: null,
    pedigree: pedigree ? { h1: pedigree.persons, h2: pedigree.alternative ?? targetUnrelated(pedigree.persons, pedigree.target, hit.profiles.map((p) => p.role)), target: pedigree.target } : null,
    mutation: null,
    computedAt: hit.date,
  };
}

/** The pedigrees the hypotheses are drawn on, each with the table of its persons (the conclusion states them in words). */
function drawnHypotheses(result: AnalysisResult): Content[] {
  if (!result.pedigree) return [];
  const { h1, h2, h2Drawn } = hypotheses(result);
  return [heading('Hypotheses as drawn'), ...pedigreeContent(result, h1, result.pedigree.h1), ...(h2Drawn ? pedigreeContent(result, h2, result.pedigree.h2) : [{ text: h2, margin: [0, 0, 0, 6] } as Content])];
}

/** The mutation models the markers were weighed with, each text once with the markers using it. */
function mutationContent(markers: readonly MarkerResult[]): Content {
  const models = new Map<string, string[]>();
  for (const m of markers) if (m.pedigree) models.set(m.pedigree.mutation, [...(models.get(m.pedigree.mutation) ?? []), m.marker]);
  if (models.size === 0) return { text: 'Not recomputed.', italics: true };
  if (models.size === 1) return { text: `Every marker: ${[...models.keys()][0]}` };
  return { ul: [...models].map(([text, names]) => `${names.join(', ')}: ${text}`) };
}

/** The markers needing a mutation (from the verdicts; without them, the stored figures) and those no model explains. */
function verdictLines(view: HitView): Content[] {
  const of = (verdict: string) => view.markers.filter((m) => m.pedigree?.verdict === verdict).map((m) => m.marker);
  const recomputed = view.markers.some((m) => m.pedigree);
  const stored = view.hit.figures?.populations.find((p) => p.reported)?.markersNeedingMutation ?? [];
  const needing = recomputed ? of('needs a mutation') : stored;
  const excluded = of('excluded');
  return [
    { text: [bold('Markers needing a mutation: '), needing.length > 0 ? needing.join(', ') : 'none'] },
    ...(excluded.length > 0 ? [{ text: [bold('Excluded markers (no mutation model explains them; LR 0): '), excluded.join(', ')], color: '#a33' } as Content] : []),
  ];
}

/** A pedigree hit's own sections: the hypotheses, the mutation models, per marker L(H1), L(H2), LR and verdict, the markers needing a mutation. */
function pedigreeSections(view: HitView, pedigree: AnalysisPedigree | null | undefined, facts: ReportFacts | undefined): Content[] {
  const result = asPedigreeResult(view, pedigree);
  const genotype = (g: string[] | null) => (g ? g.join(', ') : '—');
  return [
    ...drawnHypotheses(result),
    heading('Mutation models'),
    mutationContent(view.markers),
    heading(`Per marker${view.population ? ` over ${view.population.name}` : ''}`),
    ...(view.evaluationError ? [{ text: `The per-marker table could not be recomputed: ${view.evaluationError}`, italics: true, color: '#a33' } as Content] : []),
    ...(view.markers.length > 0 ? [pedigreeMarkerTable(result, view.markers, genotype, view.population ? facts?.populations.get(view.population.id) : undefined)] : []),
    ...verdictLines(view),
  ];
}

/** The parameters the analysis used (θ, κ, μ, …) as name and value. */
function parametersTable(constants: HitView['constants']): Content {
  return table(['auto', 'auto'], ['Parameter', 'Value'], constants.map((c) => [formulaText(c.name), String(c.value)]));
}

/** A formula-table hit's per-marker table over the reported population (frequencies and N), then its formulae once and its parameters. */
function formulaTableSections(view: HitView, roles: readonly string[], facts: ReportFacts | undefined): Content[] {
  const { analysis, population } = view;
  const frequencies = population ? facts?.populations.get(population.id) : undefined;
  const content: Content[] = [heading(`Per marker${population ? ` over ${population.name}` : ''}`)];
  if (view.evaluationError) content.push({ text: `The per-marker table could not be recomputed: ${view.evaluationError}`, italics: true, color: '#a33' });
  if (view.markers.length > 0) {
    const roleWidths = roles.map(() => 'auto');
    content.push(
      table(['auto', ...roleWidths, 'auto', 'auto', '*', 'auto'], ['Marker', ...roles, 'Allele frequencies', 'N', 'Pattern', analysis.kind === 'Exclusion' ? 'Decision' : 'LR'], view.markers.map((m) => markerRow(m, frequencies))),
    );
  }
  // The product of the markers' values, to three digits, beside the table it is checked against.
  if (view.hit.combinedIndex !== null) content.push({ text: [bold('Combined LR: '), sci(view.hit.combinedIndex), ...syntheticLabel(reportedChance(view.hit).populationSynthetic)], margin: [0, 0, 0, 6] });
  const formulae = formulaeUsedTable(view.markers);
  if (formulae) content.push(heading('Formulae used'), formulae);
  if (view.constants.length > 0) content.push(heading('Parameters'), parametersTable(view.constants));
  return content;
}

/** The populations the conclusion states: every population of the hit's figures, else the reported one with the hit's own LR. */
function conclusionPopulations(view: HitView): ConclusionPopulation[] {
  const { hit, population } = view;
  const source = (name: string | null) => (population && population.name === name ? population.source : '');
  if (hit.figures && hit.figures.populations.some((p) => p.populationName !== null)) {
    return hit.figures.populations.map((p) => ({ name: p.populationName ?? 'None', source: source(p.populationName), synthetic: p.synthetic, lr: p.combinedIndex, reported: p.reported }));
  }
  if (!population) return [];
  return [{ name: population.name, source: population.source, synthetic: hit.synthetic, lr: hit.combinedIndex, reported: true }];
}

/** The hypotheses the hit's analysis weighs: a pedigree's, or two profiles' (same source, or the analysis's relationship). */
function hitHypotheses(view: HitView, pedigree: AnalysisPedigree | null | undefined): Hypotheses | null {
  if (view.analysis.kind === 'Exclusion') return null;
  if (isPedigreeHit(view)) {
    if (pedigree) return pedigreeHypotheses(asPedigreeResult(view, pedigree));
    const [tested, ...relatives] = view.hit.profiles;
    const family = relatives.map((p) => `${p.role} ${p.sampleName}`).join(', ');
    return { labels: ['H1', 'H2'], first: `${tested!.sampleName} is the ${tested!.role} of the pedigree of ${view.analysis.name}, with ${family}`, alternative: `${tested!.sampleName} is unrelated to ${family}` };
  }
  return formulaHypotheses(view.hit.profiles, view.analysis, view.hit.matchKind === 'identity', view.analysis.profileKind === 'YStr');
}

/** Who signs: prepared by the person printing it; reviewed by who published the hit last, if anyone has. */
function hitSignatures(view: HitView, context: HitReportContext): Signature[] {
  const published = [...view.history].reverse().find((h) => h.to === 'published');
  return [
    { part: 'Prepared by', name: context.preparedBy, date: reportTime(context.preparedAt) },
    { part: 'Reviewed by', name: published?.userName ?? null, date: published ? reportTime(published.at) : null },
  ];
}

/**
 * A hit as a PDF a court can read (issue 18): page 1 leads with the conclusion — the hypotheses, the LR per
 * population in words with its verbal equivalent, the analysis and its sources — then the profiles with their
 * kits, reviewers, parties and items, the search statistics, the per-marker table with the frequencies used and
 * N, the formulae once and the parameters, every decision with names and dates, the citations and the
 * signature block; a header and "Page n of m" on every page.
 */
export function hitReportDocument(view: HitView, context: HitReportContext): TDocumentDefinitions {
  const { hit, analysis, population } = view;
  const roles = hit.profiles.map((p) => p.role);
  const { searchedProfiles, chanceSynthetic, populationSynthetic } = reportedChance(hit);
  const facts = context.facts;
  const notWeighed = notWeighedText(hit);
  const exclusionCount = hit.combinedIndex === null && analysis.kind === 'Exclusion' ? `Markers that do not exclude the relationship / markers compared: ${hit.probability}.` : notWeighed ? `${notWeighed}.` : null;
  const conclusion = view.evaluation?.conclusion;
  const content: Content[] = [
    { text: `Hit report — ${analysis.name}`, fontSize: 16, bold: true },
    {
      text: [bold('Hit: '), hit.id, '   ', bold('Status: '), HIT_STATUS_LABELS[hit.status], '   ', bold('Found: '), reportTime(hit.date), '\n', ...(hit.figures !== null || hit.searchRuleName !== null || hit.familyId !== null ? [...foundBy(hit), '   ', bold('Match: '), MATCH_KIND_LABELS[hit.matchKind]] : [])],
      margin: [0, 2, 0, 6],
    },
    ...conclusionContent({
      hypotheses: hitHypotheses(view, context.pedigree),
      populations: analysis.kind === 'Exclusion' ? [] : conclusionPopulations(view),
      identity: hit.matchKind === 'identity',
      countResult: exclusionCount,
      qualifier: conclusion ? { text: conclusionText(conclusion), excluded: conclusion.excluded } : null,
      analysis,
      verbalScale: facts?.verbalScale ?? 'none',
    }),
    ...profileFactsContent(hit.profiles, facts?.profiles ?? []),
    ...(hit.figures ? chanceSections({ ...hit, figures: hit.figures }) : []),
  ];
  if (hit.expectedChanceHits !== null && searchedProfiles !== null) {
    content.push({ text: [bold('Expected chance hits: '), formatExpectedChanceHits(hit.expectedChanceHits, searchedProfiles, undefined, chance2), ...syntheticLabel(chanceSynthetic)] });
  }
  if (hit.pValue !== null) content.push({ text: [bold('p-value: '), formatPValue(hit.pValue, chance2), ...syntheticLabel(population !== null && populationSynthetic)] });

  if (isPedigreeHit(view)) content.push(...pedigreeSections(view, context.pedigree, facts));
  else content.push(...formulaTableSections(view, roles, facts));
  const haplotype = view.evaluation?.haplotypeCount;
  if (haplotype) content.push({ text: `Haplotype count: ${haplotype.matches} of ${haplotype.total}; 95% upper bound ${sci(haplotype.upperBound)}; frequency used ${sci(haplotype.frequency)}` });

  content.push(
    heading('Decisions'),
    table(
      ['auto', 'auto', 'auto', '*', 'auto'],
      ['Date', 'Change', 'By', 'Comments / reason', 'Notified'],
      view.history.map((h) => [reportTime(h.at), h.from === h.to ? WEIGHED_AGAIN_LABEL : h.from ? `${HIT_STATUS_LABELS[h.from]} → ${HIT_STATUS_LABELS[h.to]}` : `Found (${HIT_STATUS_LABELS[h.to]})`, h.userName, h.comments, h.notified ? 'yes' : '']),
    ),
  );
  if (context.citations.length > 0) content.push(heading('Citations'), { ul: [...context.citations] });

  return framedReport({
    title: `Hit report — ${analysis.name}`,
    organizationName: context.organizationName,
    caseNumbers: hit.profiles.map((p) => p.caseNumber),
    subject: `Hit ${hit.id}`,
    orientation: roles.length > 2 ? 'landscape' : 'portrait',
    content,
    signatures: hitSignatures(view, context),
  });
}
