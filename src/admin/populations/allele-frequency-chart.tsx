import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { AlleleFrequency } from '../../../core/schemas/populations';
import { formatFrequency } from './format';

interface AlleleFrequencyChartProps {
  marker: string;
  alleles: readonly AlleleFrequency[];
  width?: number;
  height?: number;
}

/** "D3S1358: 9 alleles; most frequent 15 (0.2475)": what a screen reader hears instead of the bars. */
export function chartSummary(marker: string, alleles: readonly AlleleFrequency[]): string {
  if (alleles.length === 0) return `${marker}: no alleles`;
  const top = alleles.reduce((best, a) => (a.frequency > best.frequency ? a : best));
  return `${marker}: ${alleles.length} allele${alleles.length === 1 ? '' : 's'}; most frequent ${top.allele} (${formatFrequency(top.frequency)})`;
}

/**
 * One marker's allele frequency distribution: allele on x, frequency on y. Fixed size (no
 * ResponsiveContainer) so it draws the same everywhere; the bars are hidden from assistive
 * technology, which reads the summary and the table of values instead.
 */
export function AlleleFrequencyChart({ marker, alleles, width = 320, height = 160 }: AlleleFrequencyChartProps) {
  const tableId = useId();
  return (
    <figure className="allele-chart" aria-labelledby={`${tableId}-caption`}>
      <figcaption id={`${tableId}-caption`} className="allele-chart__caption">
        {chartSummary(marker, alleles)}
      </figcaption>
      <div aria-hidden="true">
        <BarChart width={width} height={height} data={[...alleles]} margin={{ top: 4, right: 4, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="allele" interval="preserveStartEnd" tick={{ fontSize: 11 }} />
          <YAxis width={40} tick={{ fontSize: 11 }} domain={[0, 'auto']} />
          <Tooltip formatter={(value) => formatFrequency(Number(value))} />
          <Bar dataKey="frequency" fill="var(--color-accent)" isAnimationActive={false} />
        </BarChart>
      </div>
      <table className="visually-hidden">
        <caption>Allele frequencies of {marker}</caption>
        <thead>
          <tr>
            <th scope="col">Allele</th>
            <th scope="col">Frequency</th>
          </tr>
        </thead>
        <tbody>
          {alleles.map((a) => (
            <tr key={a.allele}>
              <th scope="row">{a.allele}</th>
              <td>{formatFrequency(a.frequency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
