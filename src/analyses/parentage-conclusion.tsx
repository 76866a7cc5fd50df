import { conclusionText } from '../../core/parentage-conclusion';
import type { ParentageConclusion } from '../../core/schemas/analyses';

/**
 * The parentage conclusion of GENETICS.md "Parentage with inconsistencies", for the calculator and
 * HitView alike: Excluded (more markers inconsistent with the relationship than the analysis allows,
 * named) stated prominently, or how many were counted within the allowance. Nothing when the analysis
 * counts no inconsistencies or none was found.
 */
export function ParentageConclusionNotice({ conclusion }: { conclusion: ParentageConclusion | null | undefined }) {
  if (!conclusion || conclusion.inconsistentMarkers.length === 0) return null;
  return (
    <p className={conclusion.excluded ? 'notice notice--negative parentage-conclusion' : 'notice parentage-conclusion'} role="status" aria-label="Parentage conclusion">
      {conclusion.excluded ? <strong>{conclusionText(conclusion)}</strong> : conclusionText(conclusion)}
    </p>
  );
}
