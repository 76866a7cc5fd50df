import { useMemo } from 'react';
import { sanitizeRichHtml } from './sanitize-rich-html';

/** Stored rich text, drawn only after DOMPurify (the server sanitized it too; this is the second lock). */
export function RichText({ html, className = 'rich-text' }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeRichHtml(html), [html]);
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
