import { modelsFor } from '../genetics/evaluate-pedigree';
import type { MatchRule } from '../matching/rule-match';
import type { MatchAnalysis } from '../matching/types';

/**
 * What a search worker can be sent of an analysis: everything but the function a pedigree weighing reads its
 * mutation models through (a worker rebuilds it from the stored setting, which is the same data).
 */
export type WireAnalysis = Omit<MatchAnalysis, 'weighing'> & { weighing?: Omit<NonNullable<MatchAnalysis['weighing']>, 'models'> | undefined };

export type WireRule = Omit<MatchRule, 'analysis'> & { analysis: WireAnalysis };

export function toWireAnalysis<A extends MatchAnalysis>(analysis: A): Omit<A, 'weighing'> & WireAnalysis {
  if (!analysis.weighing) return analysis;
  const { models: _models, ...weighing } = analysis.weighing;
  return { ...analysis, weighing };
}

export function fromWireAnalysis<A extends WireAnalysis>(analysis: A): Omit<A, 'weighing'> & MatchAnalysis {
  if (!analysis.weighing) return analysis as Omit<A, 'weighing'> & MatchAnalysis;
  return { ...analysis, weighing: { ...analysis.weighing, models: modelsFor(analysis.weighing.mutation) } };
}

export const toWireRule = (rule: MatchRule): WireRule => ({ ...rule, analysis: toWireAnalysis(rule.analysis) });
export const fromWireRule = (rule: WireRule): MatchRule => ({ ...rule, analysis: fromWireAnalysis(rule.analysis) });
