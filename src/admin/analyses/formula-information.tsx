import type { Formula } from '../../../core/schemas/analyses';
import { MathText } from './math-text';
import { Scientific } from './scientific';

/**
 * The Information of a formula row (spec 2.5): Exclusion or Non Exclusion for an exclusion analysis,
 * else the formula in mathematical notation and, when it needs no allele frequencies, its value.
 */
export function FormulaInformation({ formula }: { formula: Formula }) {
  if (formula.isExclusion !== null) return <span>{formula.isExclusion ? 'Exclusion' : 'Non Exclusion'}</span>;
  return (
    <span className="formula-information">
      {formula.latex !== null ? <MathText latex={formula.latex} /> : <code>{formula.expression}</code>}
      {formula.value !== null ? (
        <span className="formula-information__value">
          {' = '}
          <Scientific value={formula.value} />
        </span>
      ) : null}
    </span>
  );
}
