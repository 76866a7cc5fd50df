import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { conclusionText } from '../../core/parentage-conclusion';
import type { MarkerResult } from '../../core/schemas/analyses';
import { HIT_STATUS_LABELS, type HitView } from '../../core/schemas/hits';
import { scientific } from './analysis-report';

/** What the hit report adds to the HitView: who the laboratory is, who printed it, and the references. */
export interface HitReportContext {
  organizationName: string;
  preparedBy: string;
  preparedAt: Date;
  citations: readonly string[];
}

const utc = (iso: string | Date) => `${new Date(iso).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
const bold = (text: string) => ({ text, bold: true });
const heading = (text: string): Content => ({ text, fontSize: 12, bold: true, margin: [0, 10, 0, 3] });
const table = (widths: string[], header: string[], body: Content[][]): Content => ({
  table: { headerRows: 1, widths, body: [header.map(bold), ...body] },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 6],
});

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

/**
 * A hit as a PDF a laboratory can file: the case(s) and profiles, the analysis with its formulae and
 * constants, the population and its source, the per-marker table, the combined index and probability
 * (spec 4), every decision with names and dates, and the citations.
 */
export function hitReportDocument(view: HitView, context: HitReportContext): TDocumentDefinitions {
  const { hit, analysis, population } = view;
  const roles = hit.profiles.map((p) => p.role);
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
    heading('Profiles'),
    table(['auto', '*', '*'], ['Role', 'Profile', 'Case'], hit.profiles.map((p) => [p.role, p.sampleName, p.caseNumber])),
    heading('Population'),
    { text: population ? `${population.name}${population.source ? ` — source: ${population.source}` : ''}` : 'None: an exclusion analysis uses no allele frequencies.' },
  ];

  if (view.constants.length > 0) {
    content.push(heading('Constants'), table(['auto', 'auto', 'auto'], ['Name', 'Notation', 'Value'], view.constants.map((c) => [c.name, c.notation, String(c.value)])));
  }
  const formulae = formulaeUsed(view);
  if (formulae.length > 0) content.push(heading('Formulae used'), table(['auto', '*'], ['Pattern', 'Formula'], formulae));

  content.push(heading('Per marker'));
  if (view.evaluationError) content.push({ text: `The per-marker table could not be recomputed: ${view.evaluationError}`, italics: true, color: '#a33' });
  if (view.markers.length > 0) {
    content.push(
      table(['auto', ...roles.map(() => 'auto'), 'auto', '*', 'auto'], ['Marker', ...roles, 'Pattern', analysis.kind === 'Exclusion' ? 'Decision' : 'Formula', 'Value'], view.markers.map(markerRow)),
    );
  }
  const haplotype = view.evaluation?.haplotypeCount;
  if (haplotype) content.push({ text: `Haplotype count: ${haplotype.matches} of ${haplotype.total}; 95% upper bound ${scientific(haplotype.upperBound)}; frequency used ${scientific(haplotype.frequency)}` });

  content.push(heading('Result'));
  content.push({
    text:
      hit.combinedIndex === null
        ? [bold('Non-exclusion markers / markers compared: '), hit.probability]
        : [bold('Combined index: '), scientific(hit.combinedIndex), '    ', bold('Probability: '), hit.probability],
  });
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
