import type { Content, TableCell } from 'pdfmake/interfaces';
import { SYNTHETIC_LABEL } from '../../core/chance-display';
import type { AnalysisResult, PopulationResult } from '../../core/schemas/analyses';
import type { DropoutEstimateResult, MixtureLrResult, MixtureMarkerLr, MixtureParametersUsed } from '../../core/schemas/mixtures';
import { formatScientific } from '../../core/scientific-display';
import { csvText } from '../exports/csv';

/**
 * The parts of an analysis report that only a mixture run has (issue 17, GENETICS.md "Mixtures"): the hypotheses,
 * every parameter (the drop-out per contributor under each hypothesis, or how it was estimated), both drop-out
 * estimates, per marker what was seen and who explains it with Pr(E|Hp), Pr(E|Hd) and the LR, and the LR per population.
 */

type MixturePopulation = PopulationResult & { mixture: MixtureLrResult };

/** The populations of a run that carry a mixture result (all of a mixture run's). */
export const mixturePopulations = (result: AnalysisResult): MixturePopulation[] => result.populations.filter((p): p is MixturePopulation => Boolean(p.mixture));

const bold = (text: string) => ({ text, bold: true });
const alleles = (list: readonly string[] | null) => (list && list.length > 0 ? list.join(', ') : '—');

/** A likelihood or LR as the PDF prints it: 17.6, 4.20 × 10⁻⁶ with the exponent raised (never 1.76e+1); 0 as 0. */
export function scientificText(value: number): Content {
  // Unbroken: a narrow column never parts the mantissa from its power of ten.
  return { text: formatScientific(value), noWrap: true };
}

/** A probability or frequency: three significant digits (0.05, 0.00155), in scientific notation below 10⁻⁴. */
const probabilityText = (value: number): Content => (value === 0 || Math.abs(value) >= 1e-4 ? { text: String(Number(value.toPrecision(3))) } : scientificText(value));

/** How the run set drop-out, in the analysis form's words. */
export function dropoutText({ dropout }: Pick<MixtureParametersUsed, 'dropout'>): string {
  if (dropout.mode === 'estimated') return dropout.estimate === 'conservative' ? 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' : 'Estimated — maximum likelihood per hypothesis';
  return dropout.values.length === 1 ? 'Fixed, one value for all contributors' : 'Fixed, one value per contributor';
}

/** The contributors in drop-out order: under Hp the person of interest, the known contributors, the unknowns; under Hd an unknown in the person of interest's place. */
export function hypothesisContributors(contributors: number, known: number, hypothesis: 'Hp' | 'Hd'): string[] {
  return Array.from({ length: contributors }, (_, i) => {
    if (i === 0) return hypothesis === 'Hp' ? 'Person of interest' : 'Unknown 1';
    if (i <= known) return `Known contributor ${i}`;
    return `Unknown ${i - known + (hypothesis === 'Hp' ? 0 : 1)}`;
  });
}

const knownCount = (result: AnalysisResult) => result.roles.filter((r) => r.role.startsWith('Known contributor')).length;

/** "Person of interest 0.0812; Known contributor 1 0.0812; Unknown 1 0.0812": one hypothesis's drop-outs, each value as `format` writes it. */
function dropoutPairs(parameters: MixtureParametersUsed, known: number, hypothesis: 'Hp' | 'Hd'): [string, number][] {
  const labels = hypothesisContributors(parameters.contributors, known, hypothesis);
  return (hypothesis === 'Hp' ? parameters.dropoutHp : parameters.dropoutHd).map((value, i) => [labels[i] ?? `Contributor ${i + 1}`, value]);
}

/** The parameters every population shares, as [name, value] rows. */
function sharedParameters(parameters: MixtureParametersUsed): [string, Content][] {
  return [
    ['Contributors', { text: String(parameters.contributors) }],
    ['Drop-out', { text: dropoutText(parameters) }],
    ['Drop-in (c)', probabilityText(parameters.dropIn)],
    ['θ', probabilityText(parameters.theta)],
    ['Person of interest counted under Hd (θ)', { text: parameters.personOfInterestTypedUnderHd ? 'yes' : 'no' }],
    ['Frequencies normalized after the minimum allele frequency rule', { text: parameters.normalizeFrequencies ? 'yes' : 'no' }],
  ];
}

const table = (widths: string[], header: string[], body: TableCell[][], margin: [number, number, number, number] = [0, 2, 0, 8]): Content => ({
  table: { headerRows: 1, dontBreakRows: true, widths, body: [header.map(bold), ...body] },
  layout: 'lightHorizontalLines',
  margin,
});

/** The run's hypotheses, the parameters every population shares and, over several populations, the LR of each. */
export function mixtureSections(result: AnalysisResult): Content[] {
  const populations = mixturePopulations(result);
  const first = populations[0]?.mixture.parameters;
  if (!first) return [];
  return [
    { text: 'Hypotheses', fontSize: 12, bold: true, margin: [0, 4, 0, 2] },
    { text: [bold('Hp: '), first.hp] },
    { text: [bold('Hd: '), first.hd], margin: [0, 0, 0, 8] },
    { text: 'Parameters', fontSize: 12, bold: true, margin: [0, 4, 0, 2] },
    table(['auto', '*'], ['Parameter', 'Value'], sharedParameters(first).map(([name, value]) => [name, value])),
    ...(populations.length > 1
      ? [table(['*', 'auto', 'auto'], ['Population', 'LR (Hp / Hd)', 'log10 LR'], populations.map((p) => [p.populationName, scientificText(p.mixture.lr), p.mixture.log10 === null ? '—' : p.mixture.log10.toFixed(2)]))]
      : []),
  ];
}

function estimateRows(estimates: readonly DropoutEstimateResult[]): TableCell[][] {
  return estimates.map((e) => [e.hypothesis, e.maximumLikelihood === null ? (e.note ?? '—') : probabilityText(e.maximumLikelihood), e.conservative !== null ? probabilityText(e.conservative) : e.tried === 0 ? 'not simulated' : 'none reproduced the evidence', `${e.accepted} / ${e.tried}`]);
}

/** The drop-out estimates computed (none unless asked for or used), and how the simulations were accepted. */
function estimatesContent(estimates: readonly DropoutEstimateResult[]): Content[] {
  if (estimates.length === 0) return [];
  const simulated = estimates.find((e) => e.tried > 0);
  return [
    { text: 'Drop-out estimates', bold: true, margin: [0, 2, 0, 0] },
    table(['auto', 'auto', 'auto', 'auto'], ['Hypothesis', 'Maximum likelihood', 'Conservative (95th percentile)', 'Accepted / tried'], estimateRows(estimates), [0, 2, 0, 2]),
    ...(simulated ? [{ text: `Simulations accepted when they reproduce the ${simulated.observedAlleles} alleles seen; seed ${simulated.seed}.`, italics: true, margin: [0, 0, 0, 8] } as Content] : []),
  ];
}

function markerRow(m: MixtureMarkerLr, withKnown: boolean): TableCell[] {
  const seen = m.replicates.length === 1 ? alleles(m.replicates[0]!) : m.replicates.map((r, i) => `R${i + 1}: ${alleles(r)}`).join('\n');
  const known = withKnown ? [m.knownContributors.map((k, i) => `K${i + 1}: ${alleles(k)}`).join('\n')] : [];
  const excluded = m.lr === 0;
  return [excluded ? { text: `${m.marker} (LR 0)`, bold: true, color: '#a33' } : m.marker, seen, alleles(m.personOfInterest), ...known, alleles(m.explained), alleles(m.droppedOut), alleles(m.unexplained), scientificText(m.likelihoodHp), scientificText(m.likelihoodHd), scientificText(m.lr)];
}

/** One population of a mixture run: its LR and log10 LR, its drop-outs and minimum allele frequency, both drop-out estimates, the marker table and the markers not weighed. */
export function mixturePopulationContent(result: AnalysisResult, population: MixturePopulation): Content[] {
  const { mixture } = population;
  const { parameters } = mixture;
  const known = knownCount(result);
  const synthetic: Content[] = population.synthetic ? ['  ', { text: SYNTHETIC_LABEL, bold: true, color: '#9a5b00' }] : [];
  const lr = scientificText(mixture.lr);
  const withKnown = mixture.markers.some((m) => m.knownContributors.length > 0);
  const dropouts = (hypothesis: 'Hp' | 'Hd'): Content => ({ text: dropoutPairs(parameters, known, hypothesis).flatMap(([label, value], i) => [`${i > 0 ? '; ' : ''}${label} `, probabilityText(value)]) });
  const content: Content[] = [
    { text: ['LR (Hp / Hd): ', lr, `    log10 LR: ${mixture.log10 === null ? '— (LR 0)' : mixture.log10.toFixed(2)}`, ...synthetic], bold: true, margin: [0, 2, 0, 4] },
    table(
      ['auto', '*'],
      ['Used over this population', 'Value'],
      [
        ['Drop-out under Hp', dropouts('Hp')],
        ['Drop-out under Hd', dropouts('Hd')],
        ['How Hd’s drop-outs were set', parameters.dropoutHdRule],
        ['Minimum allele frequency', probabilityText(parameters.population.minimumAlleleFrequency)],
      ],
    ),
    ...estimatesContent(mixture.estimates),
    table(
      ['auto', '*', 'auto', ...(withKnown ? ['auto'] : []), 'auto', 'auto', 'auto', 'auto', 'auto', 'auto'],
      ['Marker', 'Alleles seen', 'Person of interest', ...(withKnown ? ['Known contributors'] : []), 'Explained', 'Dropped out', 'Unexplained\n(drop-in or unknown)', 'Pr(E|Hp)', 'Pr(E|Hd)', 'LR'],
      mixture.markers.map((m) => markerRow(m, withKnown)),
      [0, 4, 0, 8],
    ),
  ];
  if (mixture.skippedMarkers.length > 0) content.push({ text: `Markers not weighed: ${mixture.skippedMarkers.map((m) => `${m.marker} (${m.reason})`).join('; ')}`, margin: [0, 0, 0, 8] });
  return content;
}

/** A number as the CSV writes a likelihood or LR: three significant digits, exponent form (a spreadsheet reads it as a number). */
const csvNumber = (value: number) => value.toExponential(2);

/**
 * A mixture run as CSV: per population and marker the alleles seen per replicate, the typed persons, explained,
 * dropped out and unexplained alleles, the allele frequencies used, Pr(E|Hp), Pr(E|Hd), LR and log10; the markers not
 * weighed; the LR; then the hypotheses, every parameter (exact) and both drop-out estimates, their value in the last column.
 */
export function mixtureResultCsv(result: AnalysisResult): string {
  const known = knownCount(result);
  const header = ['Population', 'Marker', 'Alleles seen', 'Person of interest', 'Known contributors', 'Explained', 'Dropped out', 'Unexplained (drop-in or unknown)', 'Allele frequencies', 'Pr(E|Hp)', 'Pr(E|Hd)', 'LR', 'log10', 'Note'];
  const blank = header.slice(2, -1).map(() => '');
  const note = (population: string, label: string, text: string | number) => [population, label, ...blank, text];
  const rows: (string | number)[][] = [header];
  for (const p of mixturePopulations(result)) {
    const population = p.synthetic ? `${p.populationName} (${SYNTHETIC_LABEL})` : p.populationName;
    const { mixture } = p;
    const { parameters } = mixture;
    for (const m of mixture.markers) {
      rows.push([
        population,
        m.marker,
        m.replicates.map((r, i) => `R${i + 1}: ${alleles(r)}`).join('; '),
        m.personOfInterest.join(', '),
        m.knownContributors.map((k, i) => `K${i + 1}: ${alleles(k)}`).join('; '),
        m.explained.join(', '),
        m.droppedOut.join(', '),
        m.unexplained.join(', '),
        m.alleles.map((a, i) => `${a}=${m.frequencies[i]}`).join('; '),
        csvNumber(m.likelihoodHp),
        csvNumber(m.likelihoodHd),
        csvNumber(m.lr),
        m.log10 === null ? '' : m.log10.toFixed(4),
        '',
      ]);
    }
    for (const s of mixture.skippedMarkers) rows.push([population, s.marker, ...blank, `not weighed: ${s.reason}`]);
    rows.push([population, 'LR (Hp / Hd)', ...blank.slice(0, -2), csvNumber(mixture.lr), mixture.log10 === null ? '' : mixture.log10.toFixed(4), '']);
    rows.push(note(population, 'Hp', parameters.hp), note(population, 'Hd', parameters.hd));
    rows.push(note(population, 'Contributors', parameters.contributors), note(population, 'Drop-out', dropoutText(parameters)));
    for (const hypothesis of ['Hp', 'Hd'] as const) rows.push(note(population, `Drop-out under ${hypothesis}`, dropoutPairs(parameters, known, hypothesis).map(([label, value]) => `${label} ${value}`).join('; ')));
    rows.push(note(population, 'How Hd’s drop-outs were set', parameters.dropoutHdRule));
    rows.push(
      note(population, 'Drop-in (c)', parameters.dropIn),
      note(population, 'θ', parameters.theta),
      note(population, 'Person of interest counted under Hd (θ)', parameters.personOfInterestTypedUnderHd ? 'yes' : 'no'),
      note(population, 'Frequencies normalized', parameters.normalizeFrequencies ? 'yes' : 'no'),
      note(population, 'Minimum allele frequency', parameters.population.minimumAlleleFrequency),
    );
    for (const e of mixture.estimates) {
      const conservative = e.conservative !== null ? String(e.conservative) : e.tried === 0 ? 'not simulated' : 'none reproduced the evidence';
      if (e.maximumLikelihood === null) {
        rows.push(note(population, `Drop-out estimate, ${e.hypothesis}`, e.note ?? 'no drop-out explains the evidence'));
        continue;
      }
      rows.push(note(population, `Drop-out estimate, ${e.hypothesis}`, `maximum likelihood ${e.maximumLikelihood}; conservative (95th percentile) ${conservative}; accepted ${e.accepted} of ${e.tried}; alleles seen ${e.observedAlleles}; seed ${e.seed}`));
    }
  }
  return csvText(rows);
}
