import { SYNTHETIC_LABEL } from '../../core/chance-display';

/** The label beside every figure computed with the synthetic (demo) population (issue 12); nothing otherwise. */
export function SyntheticLabel({ synthetic }: { synthetic: boolean }) {
  return synthetic ? <span className="synthetic-label">{SYNTHETIC_LABEL}</span> : null;
}
