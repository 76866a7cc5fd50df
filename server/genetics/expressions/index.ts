// The safe formula language (GENETICS.md "Analyses are data"): parse, validate, evaluate, print, LaTeX; never eval.
export { ExpressionError, FREQUENCY_LETTERS, type BinaryOperator, type Expression, type FrequencyLetter } from './expression';
export { namesIn, type ExpressionNames } from './expression-names';
export { evaluate, type EvaluationScope } from './evaluate-expression';
export { toLatex } from './latex';
export { parseExpression } from './parse-expression';
export { printExpression } from './print-expression';
export { validateExpression, type ValidationScope } from './validate-expression';
