import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { ContinuousHypothesisResult, ContinuousLrResult, GammaParametersUsed } from '../../core/schemas/continuous';
import type { ContinuousRequest } from '../genetics/continuous/continuous-request';
import { formatScientific } from '../../core/scientific-display';
import { scientificText } from './analysis-mixture-report';
import { epgChart, HD_COLOUR, HP_COLOUR, PP_LEFT, ppPlot } from './continuous-charts';
import { framedReport, reportTime, sectionHeading } from './report-frame';

/** What a continuous calculation's report says besides the result: who computed it, when, and where each person came from. */
export interface ContinuousReportFacts {
  preparedBy: string;
  computedAt: string;
  organizationName: string;
  /** Per person of the request (person of interest, known contributors, known non-contributors): role and source. */
  persons: { role: string; source: string }[];
  /** Each replicate's name as the request gave it (R1, R2… when it gave none), in the request's order. */
  replicates: string[];
}

const bold = (text: string) => ({ text, bold: true });
/** A parameter or probability: 4 significant digits (the CSV has every digit), a power of ten below 10⁻⁴ (never 1.7e-9). */
export const significant = (value: number) => (value !== 0 && Math.abs(value) < 1e-4 ? formatScientific(value, 4) : String(Number(value.toPrecision(4))));
const signed = (value: number, digits: number) => value.toFixed(digits).replace('-', '−');
/** A natural-log likelihood: 4 decimals. */
export const logText = (value: number | null) => (value === null ? '−∞ (likelihood 0)' : signed(value, 4));
const onOff = (on: boolean) => (on ? 'on' : 'off');
const yesNo = (yes: boolean) => (yes ? 'yes' : 'no');

const table = (widths: (string | number)[], header: string[], body: TableCell[][], fontSize?: number): Content => ({
  table: { headerRows: 1, dontBreakRows: true, widths, body: [header.map(bold), ...body] },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 8],
  ...(fontSize ? { fontSize } : {}),
});

/** The parameters of both hypotheses side by side: Mx per contributor (named), μ, σ, β, ξB, ξF, log L, and how each was fitted. */
function parameterRows(hp: ContinuousHypothesisResult, hd: ContinuousHypothesisResult): TableCell[][] {
  const value = (h: ContinuousHypothesisResult, f: (p: GammaParametersUsed) => number) => (h.parameters ? significant(f(h.parameters)) : '—');
  const mx = Array.from({ length: Math.max(hp.contributors.length, hd.contributors.length) }, (_, k): TableCell[] => [
    `Mx ${k + 1} (mixture proportion)`,
    ...[hp, hd].map((h) => (h.parameters && k < h.parameters.mx.length ? `${significant(h.parameters.mx[k]!)} (${h.contributors[k]})` : '—')),
  ]);
  const rows: TableCell[][] = [
    ...mx,
    ['μ (peak height expectation, RFU)', value(hp, (p) => p.mu), value(hd, (p) => p.mu)],
    ['σ (coefficient of variation)', value(hp, (p) => p.sigma), value(hd, (p) => p.sigma)],
    ['β (degradation slope)', value(hp, (p) => p.beta), value(hd, (p) => p.beta)],
    ['ξB (backward stutter)', value(hp, (p) => p.xiB), value(hd, (p) => p.xiB)],
    ['ξF (forward stutter)', value(hp, (p) => p.xiF), value(hd, (p) => p.xiF)],
    ['log-likelihood (natural log)', logText(hp.logLikelihood), logText(hd.logLikelihood)],
  ];
  if (hp.fit && hd.fit) {
    const fit = (f: (x: NonNullable<ContinuousHypothesisResult['fit']>) => string): TableCell[] => [f(hp.fit!), f(hd.fit!)];
    rows.push(
      ['Seed', ...fit((x) => String(x.seed))],
      ['Starts agreeing on the optimum (within 0.01)', ...fit((x) => `${x.agreeing} of ${x.starts}`)],
      ['Converged', ...fit((x) => yesNo(x.converged))],
      ['Iterations (best start) / evaluations', ...fit((x) => `${x.iterations} / ${x.evaluations}`)],
    );
  }
  for (const h of [hp, hd]) if (h.note) rows.push([`Note (${h.hypothesis})`, { text: h.note, colSpan: 2 }, '']);
  return rows;
}

/** The peaks of one marker per replicate: "R1: 15 (1000), 17 (800)". */
function peaksText(request: ContinuousRequest, marker: string): string {
  return request.replicates
    .map((r, i) => {
      const peaks = r.find((m) => m.marker === marker)?.peaks ?? [];
      return `R${i + 1}: ${peaks.length ? peaks.map((p) => `${p.allele} (${p.height})`).join(', ') : '—'}`;
    })
    .join('\n');
}

const typed = (person: ReadonlyMap<string, readonly string[]>, marker: string) => person.get(marker)?.join(', ') ?? '—';

/** Per marker: threshold, peaks, typed persons, log L under each hypothesis, log10 LR and LR; the totals last. */
function markerTable(request: ContinuousRequest, result: ContinuousLrResult): Content {
  const known = request.knownContributors.length > 0;
  const rows = result.markers.map((m): TableCell[] => [
    m.marker,
    String(m.analyticalThreshold),
    peaksText(request, m.marker),
    typed(request.personOfInterest, m.marker),
    ...(known ? [request.knownContributors.map((k, i) => `K${i + 1}: ${typed(k, m.marker)}`).join('\n')] : []),
    logText(m.logLikelihoodHp),
    logText(m.logLikelihoodHd),
    m.log10Lr === null ? '—' : signed(m.log10Lr, 4),
    m.lr === null ? '—' : scientificText(m.lr),
  ]);
  const [hp, hd] = result.hypotheses;
  rows.push([bold('Total'), '', '', '', ...(known ? [''] : []), bold(logText(hp!.logLikelihood)), bold(logText(hd!.logLikelihood)), bold(result.log10Lr === null ? '—' : signed(result.log10Lr, 4)), result.lr === null ? '—' : { text: scientificText(result.lr), bold: true }]);
  return table(
    ['auto', 'auto', '*', 'auto', ...(known ? ['auto'] : []), 'auto', 'auto', 'auto', 'auto'],
    ['Marker', 'AT (RFU)', 'Peaks: allele (height, RFU) per replicate', 'Person of interest', ...(known ? ['Known contributors'] : []), 'log L Hp', 'log L Hd', 'log10 LR', 'LR'],
    rows,
    8,
  );
}

/** Each unknown's most probable genotypes per marker under one hypothesis. */
function deconvolutionTable(h: ContinuousHypothesisResult): Content[] {
  if (h.deconvolution.length === 0) return [];
  const rows = h.deconvolution.map((d): TableCell[] => [d.contributor, d.marker, d.genotypes.map((g) => `${g.alleles.join('/')}  ${significant(g.probability)}`).join(';   ')]);
  return [{ text: `Under ${h.hypothesis}: ${h.description}`, bold: true, margin: [0, 2, 0, 0] }, table(['auto', 'auto', '*'], ['Contributor', 'Marker', 'Most probable genotypes with their posterior probability'], rows, 8)];
}

/** The number-of-contributors search, side by side, the best (lowest AIC) marked. */
function searchContent(result: ContinuousLrResult): Content[] {
  if (!result.contributorSearch) return [];
  const model = (m: { degradation: boolean; backwardStutter: boolean; forwardStutter: boolean }) => [m.degradation && 'degradation', m.backwardStutter && 'backward stutter', m.forwardStutter && 'forward stutter'].filter(Boolean).join(', ') || 'no degradation, no stutter';
  const num = (v: number | null, digits = 2) => (v === null ? '—' : signed(v, digits));
  return [
    sectionHeading('Number of contributors and model search'),
    table(
      ['auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto'],
      ['Contributors', 'Model', 'Free parameters', 'log L Hp', 'log L Hd', 'AIC (Hd)', 'BIC (Hd)', 'log10 LR', 'Best'],
      result.contributorSearch.map((s) => [String(s.contributors), model(s.model), String(s.parameters), logText(s.logLikelihoodHp), logText(s.logLikelihoodHd), num(s.aic), num(s.bic), num(s.log10Lr, 4), s.best ? bold('best (lowest AIC)') : '']),
    ),
  ];
}

/** The PP-plots of both fits and the electropherogram of each marker. */
function validationContent(result: ContinuousLrResult): Content[] {
  const [hp, hd] = result.hypotheses;
  const plots = [hp!, hd!].filter((h) => h.validation && h.validation.peaks.length > 0);
  if (plots.length === 0) return [{ text: 'No model validation: no hypothesis has a likelihood above 0.', margin: [0, 0, 0, 8] }];
  const size = 170;
  const content: Content[] = [
    {
      unbreakable: true,
      stack: [
        sectionHeading('Model validation'),
        {
          text: 'PP-plot (EuroForMix validMLEmodel): each observed height’s cumulative probability under the fitted model, given the marker’s other observations (vertical), sorted and set against the uniform quantile (i − ½)/n (horizontal), both from 0 to 1. Points near the dashed diagonal mean the model explains the heights. Shaded: the 99% simultaneous envelope (α = 0.01); dotted: the Bonferroni envelope (α = 0.01/n); a point outside it is orange.',
          margin: [0, 0, 0, 4],
        },
        {
          columns: plots.map((h) => ({
            width: PP_LEFT + size + size / 8,
            stack: [{ text: `${h.hypothesis}: ${h.validation!.peaks.length} peaks`, bold: true, color: h.hypothesis === 'Hp' ? HP_COLOUR : HD_COLOUR, margin: [0, 0, 0, 2] }, ppPlot(h.validation!, size, h.hypothesis === 'Hp' ? HP_COLOUR : HD_COLOUR)],
          })),
          columnGap: 30,
          margin: [0, 0, 0, 8],
        },
      ],
    },
    sectionHeading('Observed and expected heights per marker'),
    {
      text: [
        'Bars: the observed height of each replicate (R1 darkest). Ticks: the expected height under ',
        { text: 'Hp', color: HP_COLOUR, bold: true },
        ' and under ',
        { text: 'Hd', color: HD_COLOUR, bold: true },
        ' at the parameters used, averaged over the genotypes’ posterior (EuroForMix plotEPG2). Dashed green: the analytical threshold.',
      ],
      margin: [0, 0, 0, 4],
    },
  ];
  const perRow = 3;
  const width = 230;
  const charts = result.markers.map((m) => epgChart(m.marker, hp!.validation, hd!.validation, m.analyticalThreshold, width, 70));
  for (let i = 0; i < charts.length; i += perRow) content.push({ columns: charts.slice(i, i + perRow).map((c) => ({ width, stack: [c] })), columnGap: 22, margin: [0, 0, 0, 10], unbreakable: true });
  return content;
}

/**
 * A continuous-model calculation as a PDF a court can read (issue 31): the LR first, the hypotheses and persons,
 * the frequencies, the model's switches and settings, every parameter under each hypothesis (fixed or fitted, with
 * the starts agreeing), the log-likelihood and LR per marker and in total, the deconvolution, the number-of-
 * contributors search when run, the PP-plots and an electropherogram per marker; that the weights are doubles.
 */
export function continuousReportDocument(request: ContinuousRequest, result: ContinuousLrResult, facts: ContinuousReportFacts): TDocumentDefinitions {
  const [hp, hd] = result.hypotheses;
  const s = result.settings;
  const thresholds = [...request.markerThresholds].map(([m, t]) => `${m} ${t}`).join(', ');
  const content: Content[] = [
    { text: 'Continuous mixture LR (gamma peak-height model)', fontSize: 16, bold: true },
    { text: `Computed ${reportTime(facts.computedAt)} by ${facts.preparedBy}`, margin: [0, 2, 0, 6] },
    result.log10Lr !== null && result.lr !== null
      ? { text: ['LR (Hp / Hd): ', scientificText(result.lr), `    log10 LR: ${signed(result.log10Lr, 4)}`], bold: true, fontSize: 12, margin: [0, 2, 0, 4] }
      : { text: result.log10Lr !== null ? `log10 LR: ${signed(result.log10Lr, 4)} (the LR itself passes a double’s range)` : `No LR. ${result.note ?? ''}`, bold: true, fontSize: 12, margin: [0, 2, 0, 4] },
    sectionHeading('Hypotheses'),
    { text: [bold('Hp: '), `${hp!.description} (contributors in Mx order: ${hp!.contributors.join(', ')})`] },
    { text: [bold('Hd: '), `${hd!.description} (contributors in Mx order: ${hd!.contributors.join(', ')})`], margin: [0, 0, 0, 6] },
    table(['auto', '*'], ['Person', 'Source'], facts.persons.map((p) => [p.role, p.source])),
    sectionHeading('Evidence'),
    table(['auto', '*'], ['Replicate', 'Name'], facts.replicates.map((name, i) => [`R${i + 1}`, name])),
    sectionHeading('Frequencies, model and settings'),
    table(
      ['auto', '*'],
      ['Setting', 'Value'],
      [
        ['Frequencies', s.population.id ? `${s.population.name} (stored population ${s.population.id})` : s.population.name],
        ['Minimum allele frequency', significant(s.population.minimumAlleleFrequency)],
        ['Frequencies normalized to sum 1', yesNo(s.normalizeFrequencies)],
        ['Degradation model', onOff(s.model.degradation)],
        ['Backward stutter model', onOff(s.model.backwardStutter)],
        ['Forward stutter model', onOff(s.model.forwardStutter)],
        ['Analytical threshold (RFU)', `${s.analyticalThreshold}${thresholds ? `; per marker: ${thresholds}` : ''}`],
        ['Drop-in probability (c)', significant(s.dropIn)],
        ['Drop-in peak height rate (λ)', significant(s.dropInLambda)],
        ['θ (Balding–Nichols)', significant(s.theta)],
        ['Person of interest counted under Hd (θ)', yesNo(s.personOfInterestTypedUnderHd)],
        ['Contributors', String(s.contributors)],
        ['Parameters', s.mode === 'fixed' ? 'fixed (given in the request)' : 'fitted by maximum likelihood under each hypothesis'],
        ['Precision', result.precision],
        ...(result.skippedMarkers.length ? [['Markers not weighed', result.skippedMarkers.map((m) => `${m.marker} (${m.reason})`).join('; ')]] : []),
      ],
    ),
    sectionHeading('Parameters'),
    table(['auto', '*', '*'], ['Parameter', 'Hp', 'Hd'], parameterRows(hp!, hd!)),
    sectionHeading('Per marker'),
    markerTable(request, result),
    ...(hp!.deconvolution.length || hd!.deconvolution.length ? [sectionHeading('Deconvolution'), ...deconvolutionTable(hp!), ...deconvolutionTable(hd!)] : []),
    ...searchContent(result),
    ...validationContent(result),
  ];
  return framedReport({
    title: 'Continuous mixture LR',
    organizationName: facts.organizationName,
    caseNumbers: [],
    subject: 'Continuous mixture LR',
    orientation: 'landscape',
    content,
    signatures: [
      { part: 'Prepared by', name: facts.preparedBy, date: reportTime(facts.computedAt) },
      { part: 'Reviewed by', name: null, date: null },
    ],
  });
}
