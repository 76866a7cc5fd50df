import type { ContinuousHypothesisResult, ContinuousLrResult } from '../../core/schemas/continuous';
import type { ContinuousRequest } from '../genetics/continuous/continuous-request';
import { csvText } from '../exports/csv';
import type { ContinuousReportFacts } from './continuous-report';

export const CONTINUOUS_CSV_HEADER = ['Section', 'Hypothesis', 'Marker', 'Contributor', 'Replicate', 'Allele', 'Item', 'Value'];

type Row = (string | number)[];
/** A number exactly as computed (every digit a double holds); empty for none. */
const exact = (value: number | null) => (value === null ? '' : value);

/**
 * A continuous-model calculation as one long CSV table (issue 31), every number with all its digits: the settings,
 * the persons, every parameter and the fit per hypothesis, the log-likelihood per marker and in total, the LR, the
 * peaks, the deconvolution, the number-of-contributors search, the PP-plot points and the expected heights.
 */
export function continuousResultCsv(request: ContinuousRequest, result: ContinuousLrResult, facts: ContinuousReportFacts): string {
  const rows: Row[] = [CONTINUOUS_CSV_HEADER];
  const row = (section: string, item: string, value: string | number, cells: { hypothesis?: string; marker?: string; contributor?: string; replicate?: number; allele?: string } = {}) =>
    rows.push([section, cells.hypothesis ?? '', cells.marker ?? '', cells.contributor ?? '', cells.replicate ?? '', cells.allele ?? '', item, value]);
  const s = result.settings;
  row('Result', 'LR (Hp / Hd)', exact(result.lr));
  row('Result', 'log10 LR', exact(result.log10Lr));
  if (result.note) row('Result', 'Note', result.note);
  row('Setting', 'Computed', facts.computedAt);
  row('Setting', 'Computed by', facts.preparedBy);
  row('Setting', 'Contributors', s.contributors);
  row('Setting', 'Parameters', s.mode);
  row('Setting', 'Degradation', s.model.degradation ? 'on' : 'off');
  row('Setting', 'Backward stutter', s.model.backwardStutter ? 'on' : 'off');
  row('Setting', 'Forward stutter', s.model.forwardStutter ? 'on' : 'off');
  row('Setting', 'Analytical threshold (RFU)', s.analyticalThreshold);
  row('Setting', 'Drop-in probability (c)', s.dropIn);
  row('Setting', 'Drop-in peak height rate (λ)', s.dropInLambda);
  row('Setting', 'θ', s.theta);
  row('Setting', 'Person of interest counted under Hd (θ)', s.personOfInterestTypedUnderHd ? 'yes' : 'no');
  row('Setting', 'Frequencies', s.population.name);
  if (s.population.id) row('Setting', 'Population id', s.population.id);
  row('Setting', 'Minimum allele frequency', s.population.minimumAlleleFrequency);
  row('Setting', 'Frequencies normalized', s.normalizeFrequencies ? 'yes' : 'no');
  row('Setting', 'Precision', result.precision);
  for (const p of facts.persons) row('Person', 'Source', p.source, { contributor: p.role });
  facts.replicates.forEach((name, i) => row('Replicate', 'Name', name, { replicate: i + 1 }));
  for (const h of result.hypotheses) hypothesisRows(h, row);
  for (const m of result.markers) {
    row('Per marker', 'Analytical threshold (RFU)', m.analyticalThreshold, { marker: m.marker });
    m.alleles.forEach((a, i) => {
      row('Per marker', 'Frequency', m.frequencies[i]!, { marker: m.marker, allele: a });
      if (m.fragmentSizes) row('Per marker', 'Fragment size (bp)', m.fragmentSizes[i]!, { marker: m.marker, allele: a });
    });
    request.replicates.forEach((r, i) => {
      for (const peak of r.find((x) => x.marker === m.marker)?.peaks ?? []) row('Peak', 'Height (RFU)', peak.height, { marker: m.marker, replicate: i + 1, allele: peak.allele });
    });
    row('Per marker', 'log-likelihood', exact(m.logLikelihoodHp), { hypothesis: 'Hp', marker: m.marker });
    row('Per marker', 'log-likelihood', exact(m.logLikelihoodHd), { hypothesis: 'Hd', marker: m.marker });
    row('Per marker', 'log10 LR', exact(m.log10Lr), { marker: m.marker });
    row('Per marker', 'LR', exact(m.lr), { marker: m.marker });
  }
  for (const m of result.skippedMarkers) row('Per marker', 'Not weighed', m.reason, { marker: m.marker });
  for (const [i, m] of (result.contributorSearch ?? []).entries()) {
    const model = `${m.contributors} contributors; degradation ${m.model.degradation ? 'on' : 'off'}; backward stutter ${m.model.backwardStutter ? 'on' : 'off'}; forward stutter ${m.model.forwardStutter ? 'on' : 'off'}`;
    const cells = { contributor: `Model ${i + 1}` };
    row('Contributor search', 'Model', model, cells);
    row('Contributor search', 'Free parameters', m.parameters, cells);
    row('Contributor search', 'log-likelihood Hp', exact(m.logLikelihoodHp), cells);
    row('Contributor search', 'log-likelihood Hd', exact(m.logLikelihoodHd), cells);
    row('Contributor search', 'AIC', exact(m.aic), cells);
    row('Contributor search', 'BIC', exact(m.bic), cells);
    row('Contributor search', 'log10 LR', exact(m.log10Lr), cells);
    row('Contributor search', 'Best', m.best ? 'yes' : 'no', cells);
  }
  return csvText(rows);
}

/** One hypothesis: its description, every parameter, the fit, the total, the deconvolution and the validation points. */
function hypothesisRows(h: ContinuousHypothesisResult, row: (section: string, item: string, value: string | number, cells?: { hypothesis?: string; marker?: string; contributor?: string; replicate?: number; allele?: string }) => void): void {
  const hypothesis = h.hypothesis;
  row('Hypothesis', 'Description', h.description, { hypothesis });
  row('Hypothesis', 'log-likelihood', exact(h.logLikelihood), { hypothesis });
  if (h.note) row('Hypothesis', 'Note', h.note, { hypothesis });
  if (h.parameters) {
    h.parameters.mx.forEach((mx, k) => row('Parameter', 'Mx', mx, { hypothesis, contributor: h.contributors[k]! }));
    for (const [item, value] of [['μ', h.parameters.mu], ['σ', h.parameters.sigma], ['β', h.parameters.beta], ['ξB', h.parameters.xiB], ['ξF', h.parameters.xiF]] as const) row('Parameter', item, value, { hypothesis });
  }
  if (h.fit) {
    row('Fit', 'Seed', h.fit.seed, { hypothesis });
    row('Fit', 'Starts', h.fit.starts, { hypothesis });
    row('Fit', 'Starts agreeing', h.fit.agreeing, { hypothesis });
    row('Fit', 'Converged', h.fit.converged ? 'yes' : 'no', { hypothesis });
    row('Fit', 'Iterations', h.fit.iterations, { hypothesis });
    row('Fit', 'Evaluations', h.fit.evaluations, { hypothesis });
    if (h.fit.note) row('Fit', 'Note', h.fit.note, { hypothesis });
  }
  for (const d of h.deconvolution) for (const g of d.genotypes) row('Deconvolution', 'Posterior probability', g.probability, { hypothesis, marker: d.marker, contributor: d.contributor, allele: g.alleles.join('/') });
  for (const p of h.validation?.peaks ?? []) row('PP-plot', 'Cumulative probability', p.cumulative, { hypothesis, marker: p.marker, replicate: p.replicate, allele: p.allele });
  for (const e of h.validation?.expected ?? []) row('Expected height', 'Expected height (RFU)', e.expected, { hypothesis, marker: e.marker, allele: e.allele });
}
