import { useMemo } from 'react';
import katex from 'katex';
import 'katex/dist/katex.min.css';

/**
 * LaTeX drawn by KaTeX (issue 5: formulae in mathematical notation). KaTeX escapes text and, with
 * `trust` off (its default), emits no links or raw HTML, so its markup is safe to insert; bad LaTeX
 * shows in red instead of throwing. MathML is included for screen readers.
 */
export function MathText({ latex, display = false }: { latex: string; display?: boolean }) {
  const html = useMemo(() => katex.renderToString(latex, { throwOnError: false, output: 'htmlAndMathml', displayMode: display }), [latex, display]);
  return <span className="math-text" dangerouslySetInnerHTML={{ __html: html }} />;
}
