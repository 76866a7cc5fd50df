import { useWatch } from 'react-hook-form';
import type { AnalysisKind } from '../../../core/schemas/analyses';
import { OptionalNumberField } from '../../ui/form/optional-number-field';

/** What the threshold means for each kind (core/schemas/analyses AnalysisInput.threshold). */
const MEANING: Record<AnalysisKind, string> = {
  Computational: 'The combined index a result must reach to be a hit.',
  Exclusion: 'The most exclusions a result may have and still be a hit.',
  Pedigree: 'The likelihood ratio (H1 against H2) a family search result must reach to be a hit.',
  Mixture: 'The likelihood ratio (Hp against Hd) a database candidate must reach to be a hit.',
  'Continuous mixture': 'The likelihood ratio (Hp against Hd, from the peak heights) a database candidate must reach to be a hit.',
};

/** The analysis's threshold: a number, or empty for never a hit (the analysis is then used in the calculator only). */
export function ThresholdField() {
  const kind = useWatch({ name: 'kind' }) as AnalysisKind | undefined;
  const hint = `${kind ? `${MEANING[kind]} ` : ''}Leave empty: never a hit (calculator only).`;
  return <OptionalNumberField name="threshold" label="Threshold" hint={hint} />;
}
