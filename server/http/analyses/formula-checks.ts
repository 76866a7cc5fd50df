import { evaluate, ExpressionError, namesIn, parseExpression, toLatex, validateExpression } from '../../genetics/expressions';
import { canonicalPatternText, frequencyLettersOf, PatternError } from '../../genetics/patterns';
import { ENGINE_VARIABLES } from '../../genetics/engine-variables';
import { CONTINUOUS_MIXTURE } from '../../../core/schemas/analyses';
import { BadRequest } from '../errors';
import { ploidyOf, type AnalysisRow } from './analysis-view';

/** The constant names a stored formula uses (none when it no longer parses). */
export function identifiersOf(expression: string): Set<string> {
  try {
    return new Set(namesIn(parseExpression(expression)).constants.keys());
  } catch {
    return new Set();
  }
}

/** How a formula reads: LaTeX, and its value when it uses constants only. */
export function describeFormula(expression: string | null, constants: Readonly<Record<string, number>>): { latex: string | null; value: number | null } {
  if (expression === null) return { latex: null, value: null };
  try {
    const parsed = parseExpression(expression);
    const names = namesIn(parsed);
    const perMarker = [...names.constants.keys()].some((n) => n in ENGINE_VARIABLES);
    const value = names.letters.size === 0 && !perMarker ? evaluate(parsed, { letters: {}, constants }) : null;
    return { latex: toLatex(parsed), value };
  } catch {
    return { latex: null, value: null };
  }
}

/**
 * Checks a formula row before it is saved (issue 5: it parses, uses only the pattern's letters and
 * the analysis's constants); returns the canonical pattern. Every problem is a 400 naming the field.
 */
export function checkFormula(
  analysis: AnalysisRow,
  input: { pattern: string; expression: string | null; isExclusion: boolean | null },
  constantNames: readonly string[],
): string {
  if (analysis.kind === 'Pedigree') throw new BadRequest('A pedigree analysis has no formula table: its likelihoods come from the pedigree drawn.');
  if (analysis.kind === 'Mixture') throw new BadRequest('A mixture analysis has no formula table: its likelihoods come from the semi-continuous model and its parameters.');
  if (analysis.kind === CONTINUOUS_MIXTURE) throw new BadRequest('A continuous mixture analysis has no formula table: its likelihoods come from the peak heights and the gamma model.');
  let pattern: string;
  try {
    pattern = canonicalPatternText(input.pattern, { ploidy: ploidyOf(analysis.profileKind) });
  } catch (err) {
    if (err instanceof PatternError) throw new BadRequest(err.message, [{ path: '/pattern', message: err.message }]);
    throw err;
  }
  const roles = pattern.split('-').length;
  if (roles !== analysis.roles.length) {
    const message = `This analysis has ${analysis.roles.length} role${analysis.roles.length === 1 ? '' : 's'} (${analysis.roles.join(', ')}); the allele expression names ${roles}`;
    throw new BadRequest(message, [{ path: '/pattern', message }]);
  }
  if (pattern !== input.pattern.trim()) {
    const message = `Write it in canonical form: ${pattern}`;
    throw new BadRequest(message, [{ path: '/pattern', message }]);
  }
  if (analysis.kind === 'Exclusion') {
    if (input.isExclusion === null) throw new BadRequest('Say whether this pattern is an exclusion', [{ path: '/isExclusion', message: 'Required' }]);
    return pattern;
  }
  if (!input.expression) throw new BadRequest('Required', [{ path: '/expression', message: 'Required' }]);
  try {
    const problems = validateExpression(parseExpression(input.expression), { letters: frequencyLettersOf(pattern), constants: [...constantNames, ...Object.keys(ENGINE_VARIABLES)] });
    if (problems.length > 0) throw new BadRequest(problems[0]!, problems.map((message) => ({ path: '/expression', message })));
  } catch (err) {
    if (err instanceof ExpressionError) throw new BadRequest(err.message, [{ path: '/expression', message: err.message }]);
    throw err;
  }
  return pattern;
}
