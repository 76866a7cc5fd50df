import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatBracket, formatExpectedChanceHits, formatPValue, formatSmall, SYNTHETIC_LABEL } from '../../core/chance-display';
import { conclusionText } from '../../core/parentage-conclusion';
import { reportedChance } from '../../core/reported-chance';
import type { AnalysisPedigree, AnalysisResult, MarkerResult } from '../../core/schemas/analyses';
import { MATCH_KIND_LABELS, type HitFigures, type PopulationFigures } from '../../core/schemas/hit-figures';
import { STRINGENCY_LABELS } from '../../core/schemas/search-rules';
import { HIT_STATUS_LABELS, type HitView } from '../../core/schemas/hits';
import { targetUnrelated } from '../genetics/pedigree/analysis-hypotheses';
import { hypotheses, pedigreeContent, pedigreeMarkerTable } from './analysis-pedigree-report';
import { scientific } from './analysis-report';

/** What the hit report adds to the HitView: who the laboratory is, who printed it, and the references. */
export interface HitReportContext {
  organizationName: string;
  preparedBy: string;
  preparedAt: Date;
  citations: readonly string[];
  /** A pedigree hit's analysis pedigree (H1 as drawn, the tested person, H2 if drawn out): printed as persons and a diagram. */
  pedigree?: AnalysisPedigree | null;
}

/** What found the hit: a missing-person family's search, or a search rule (perhaps deleted since). */
const foundBy = (hit: HitView['hit']): Content[] =>
  hit.familyId !== null
    ? [bold('Found by the search of the missing-person family: '), hit.familyName ?? 'a family since deleted']
    : [bold('Found by the search rule: '), hit.searchRuleName ?? 'a rule since deleted'];

const utc = (iso: string | Date) => `${new Date(iso).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
const bold = (text: string) => ({ text, bold: true });
const heading = (text: string): Content => ({ text, fontSize: 12, bold: true, margin: [0, 10, 0, 3] });
const table = (widths: (string | number)[], header: string[], body: Content[][]): Content => ({
  table: { headerRows: 1, widths, body: [header.map(bold), ...body] },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 6],
});

/** The label every synthetic figure carries (issue 12), beside it. */
const syntheticTag: Content = { text: SYNTHETIC_LABEL, bold: true, color: '#9a5b00' };
const syntheticLabel = (synthetic: boolean): Content[] => (synthetic ? ['  ', syntheticTag] : []);

/** Every population side by side, as HitView shows them: the reported one marked, synthetic ones labelled. */
function populationRow(p: PopulationFigures): Content[] {
  const chance = p.chance;
  return [
    { text: [p.populationName ?? 'None', ...(p.reported ? [{ text: ' (reported)', italics: true }] : []), ...(p.synthetic ? ['\n', syntheticTag] : [])] },
    p.probability,
    p.log10 === null ? '—' : p.log10.toFixed(2),
    chance?.pValue == null ? '—' : { text: [formatPValue(chance.pValue), ...(chance.pValueBracket ? [{ text: `\n${formatBracket(chance.pValueBracket)}`, fontSize: 7, color: '#555' }] : [])] },
    chance ? formatExpectedChanceHits(chance.expectedChanceHits, chance.searchedProfiles) : '—',
  ];
}

/** The populations table and, for an identity rule, the stringency counts with the chance an unrelated profile meets them. */
function chanceSections(figures: HitFigures): Content[] {
  const content: Content[] = [
    heading('Populations'),
    table(['*', 94, 40, 94, 110], ['Population', 'Likelihood ratio', 'log10 LR', 'p-value', 'Expected chance hits'], figures.populations.map(populationRow)),
  ];
  const s = figures.stringency;
  if (s) {
    const synthetic = syntheticLabel(figures.populations.some((p) => p.synthetic));
    content.push(
      heading('Stringency'),
      {
        table: {
          widths: [170, '*'],
          body: [
            [bold('Stringency'), STRINGENCY_LABELS[s.stringency]],
            [bold('Markers compared'), `${s.comparedMarkers} (at least ${s.minMarkers} required)`],
            [bold('Mismatches'), `${s.mismatches} (at most ${s.maxMismatches} allowed)`],
            [bold('Chance an unrelated profile meets it'), { text: [formatSmall(s.probability), ...synthetic] }],
            [bold('Expected chance hits'), { text: [formatExpectedChanceHits(s.expectedChanceHits, s.searchedProfiles), ...synthetic] }],
          ],
        },
        layout: 'noBorders',
        margin: [0, 2, 0, 6],
      },
    );
  }
  return content;
}

function markerRow(m: MarkerResult): Content[] {
  const decision = m.isExclusion === null ? (m.expression ?? '') : m.isExclusion ? 'Exclusion' : 'Non Exclusion';
  return [
    m.marker,
    ...m.genotypes.map((g) => (g ? g.join(', ') : '—')),
    m.pattern ?? '',
    m.notEvaluated ? { text: `not evaluated: ${m.notEvaluated}`, italics: true } : decision,
    scientific(m.value),
  ];
}

/** Each pattern met with the formula it used, once: the formulae a reviewer checks the values against. */
function formulaeUsed(view: HitView): Content[][] {
  const seen = new Map<string, string>();
  for (const m of view.markers) if (m.pattern && m.expression && m.notEvaluated === null) seen.set(m.pattern, m.expression);
  return [...seen].map(([pattern, expression]) => [pattern, expression]);
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
    pedigree: pedigree ? { h1: pedigree.persons, h2: pedigree.alternative ?? targetUnrelated(pedigree.persons, pedigree.target), target: pedigree.target } : null,
    mutation: null,
    computedAt: hit.date,
  };
}

/** The hypotheses: with the analysis's pedigree, each drawn with the table of its persons; without it, in words. */
function hypothesesContent(view: HitView, result: AnalysisResult): Content[] {
  if (result.pedigree) {
    const { h1, h2, h2Drawn } = hypotheses(result);
    return [...pedigreeContent(result, h1, result.pedigree.h1), ...(h2Drawn ? pedigreeContent(result, h2, result.pedigree.h2) : [{ text: h2, margin: [0, 0, 0, 6] } as Content])];
  }
  const [tested, ...relatives] = view.hit.profiles;
  const family = relatives.map((p) => `${p.role} ${p.sampleName}`).join(', ');
  return [
    { text: `H1: ${tested!.sampleName} is the ${tested!.role} of the pedigree of ${view.analysis.name}, with ${family}.` },
    { text: `H2: ${tested!.sampleName} is unrelated to ${family}.`, margin: [0, 0, 0, 6] },
  ];
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
function pedigreeSections(view: HitView, pedigree: AnalysisPedigree | null | undefined): Content[] {
  const result = asPedigreeResult(view, pedigree);
  const genotype = (g: string[] | null) => (g ? g.join(', ') : '—');
  return [
    heading('Hypotheses'),
    ...hypothesesContent(view, result),
    heading('Mutation models'),
    mutationContent(view.markers),
    heading(`Per marker${view.population ? ` over ${view.population.name}` : ''}`),
    ...(view.evaluationError ? [{ text: `The per-marker table could not be recomputed: ${view.evaluationError}`, italics: true, color: '#a33' } as Content] : []),
    ...(view.markers.length > 0 ? [pedigreeMarkerTable(result, view.markers, genotype)] : []),
    ...verdictLines(view),
  ];
}

/** A formula-table hit's constants, formulae used and per-marker table (the reported population's; the populations table shows the others' totals). */
function formulaTableSections(view: HitView, roles: readonly string[]): Content[] {
  const { analysis, population } = view;
  const content: Content[] = [];
  if (view.constants.length > 0) {
    content.push(heading('Constants'), table(['auto', 'auto', 'auto'], ['Name', 'Notation', 'Value'], view.constants.map((c) => [c.name, c.notation, String(c.value)])));
  }
  const formulae = formulaeUsed(view);
  if (formulae.length > 0) content.push(heading('Formulae used'), table(['auto', '*'], ['Pattern', 'Formula'], formulae));

  content.push(heading(`Per marker${population ? ` over ${population.name}` : ''}`));
  if (view.evaluationError) content.push({ text: `The per-marker table could not be recomputed: ${view.evaluationError}`, italics: true, color: '#a33' });
  if (view.markers.length > 0) {
    content.push(
      table(['auto', ...roles.map(() => 'auto'), 'auto', '*', 'auto'], ['Marker', ...roles, 'Pattern', analysis.kind === 'Exclusion' ? 'Decision' : 'Formula', 'Value'], view.markers.map(markerRow)),
    );
  }
  return content;
}

/**
 * A hit as a PDF a laboratory can file: the case(s) and profiles, the analysis with its formulae and
 * constants, the population and its source, the per-marker table, the combined index and probability
 * (spec 4), every decision with names and dates, and the citations.
 */
export function hitReportDocument(view: HitView, context: HitReportContext): TDocumentDefinitions {
  const { hit, analysis, population } = view;
  const roles = hit.profiles.map((p) => p.role);
  const { populationSynthetic, searchedProfiles, chanceSynthetic } = reportedChance(hit);
  const synthetic = syntheticLabel(population !== null && populationSynthetic);
  const content: Content[] = [
    { text: `Hit report — ${analysis.name}`, fontSize: 16, bold: true },
    { text: analysis.label, margin: [0, 0, 0, 4] },
    {
      columns: [
        { text: [bold('Laboratory: '), context.organizationName, '\n', bold('Hit: '), hit.id, '\n', bold('Status: '), HIT_STATUS_LABELS[hit.status]] },
        { text: [bold('Found: '), utc(hit.date), '\n', bold('Cases: '), [...new Set(hit.profiles.map((p) => p.caseNumber))].join(', ')] },
      ],
      margin: [0, 0, 0, 6],
    },
    ...(hit.figures !== null || hit.searchRuleName !== null || hit.familyId !== null
      ? [{ text: [...foundBy(hit), '\n', bold('Match: '), MATCH_KIND_LABELS[hit.matchKind]], margin: [0, 0, 0, 6] } as Content]
      : []),
    heading('Profiles'),
    table(['auto', '*', '*'], ['Role', 'Profile', 'Case'], hit.profiles.map((p) => [p.role, p.sampleName, p.caseNumber])),
    heading('Population'),
    { text: population ? [`${population.name}${population.source ? ` — source: ${population.source}` : ''}`, ...synthetic] : 'None: an exclusion analysis uses no allele frequencies.' },
    ...(hit.figures ? chanceSections(hit.figures) : []),
  ];

  if (isPedigreeHit(view)) content.push(...pedigreeSections(view, context.pedigree));
  else content.push(...formulaTableSections(view, roles));
  const haplotype = view.evaluation?.haplotypeCount;
  if (haplotype) content.push({ text: `Haplotype count: ${haplotype.matches} of ${haplotype.total}; 95% upper bound ${scientific(haplotype.upperBound)}; frequency used ${scientific(haplotype.frequency)}` });

  content.push(heading('Result'));
  content.push({
    text:
      hit.combinedIndex === null
        ? [bold('Non-exclusion markers / markers compared: '), hit.probability]
        : [bold('Combined index: '), scientific(hit.combinedIndex), '    ', bold('Probability: '), hit.probability, ...synthetic],
  });
  if (hit.expectedChanceHits !== null && searchedProfiles !== null) {
    content.push({ text: [bold('Expected chance hits: '), formatExpectedChanceHits(hit.expectedChanceHits, searchedProfiles), ...syntheticLabel(chanceSynthetic)] });
  }
  if (hit.pValue !== null) content.push({ text: [bold('p-value: '), formatPValue(hit.pValue), ...synthetic] });
  const conclusion = view.evaluation?.conclusion;
  if (conclusion) content.push({ text: `Recomputed: ${conclusionText(conclusion)}`, bold: conclusion.excluded, color: conclusion.excluded ? '#a33' : undefined });

  content.push(
    heading('Decisions'),
    table(
      ['auto', 'auto', 'auto', '*', 'auto'],
      ['Date', 'Change', 'By', 'Comments / reason', 'Notified'],
      view.history.map((h) => [utc(h.at), h.from ? `${HIT_STATUS_LABELS[h.from]} → ${HIT_STATUS_LABELS[h.to]}` : `Found (${HIT_STATUS_LABELS[h.to]})`, h.userName, h.comments, h.notified ? 'yes' : '']),
    ),
  );

  if (context.citations.length > 0) content.push(heading('Citations'), { ul: [...context.citations] });
  content.push({ text: `Prepared ${utc(context.preparedAt)} by ${context.preparedBy}.`, margin: [0, 12, 0, 0], italics: true });

  return { info: { title: `Hit ${hit.id}` }, pageMargins: [36, 36, 36, 36], pageOrientation: roles.length > 2 ? 'landscape' : 'portrait', content };
}
