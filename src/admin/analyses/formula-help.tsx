import { useWatch } from 'react-hook-form';
import type { Constant } from '../../../core/schemas/analyses';
import { MathText } from './math-text';

/** The frequency letters an allele expression allows: one per distinct allele letter, in order (PQ-PR → p, q, r). */
export function frequencyLettersOf(pattern: string): string[] {
  return [...new Set(pattern.toUpperCase().replace(/[^PQRSTU]/g, ''))].map((l) => l.toLowerCase());
}

/** What a formula may use (issue 5): the pattern's allele frequencies, the analysis's constants and the engine's A. */
export function FormulaHelp({ constants }: { constants: readonly Constant[] }) {
  const pattern = (useWatch({ name: 'pattern' }) as string | undefined) ?? '';
  const letters = frequencyLettersOf(pattern);
  return (
    <aside className="formula-help notice" aria-label="What a formula may use">
      <dl>
        <dt>Allele frequencies of this allele expression</dt>
        <dd>{letters.length > 0 ? letters.join(', ') : 'Type the allele expression to see its letters.'}</dd>
        <dt>Constants of this analysis</dt>
        <dd>
          {constants.length > 0 ? (
            <ul>
              {constants.map((c) => (
                <li key={c.id}>
                  <code>{c.name}</code> {c.notation ? <MathText latex={c.notation} /> : null} = {c.value}
                </li>
              ))}
            </ul>
          ) : (
            'None yet.'
          )}
        </dd>
        <dt>Supplied per marker</dt>
        <dd>
          <code>A</code>: the marker&apos;s power of exclusion in the population.
        </dd>
        <dt>Operators</dt>
        <dd>
          <code>+ - * / ^</code> and parentheses, e.g. <code>1/(4*p)</code>.
        </dd>
      </dl>
    </aside>
  );
}
