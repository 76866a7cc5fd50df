import {
  isAllowedHref,
  RICH_TEXT_DROPPED_WITH_CONTENT,
  RICH_TEXT_LINK_REL,
  RICH_TEXT_TAG_ALIASES,
  RICH_TEXT_TAGS,
  type RichTextTag,
} from '../../../core/rich-text';
import { tokenizeHtml, type HtmlToken } from './html-tokenizer';

const ALLOWED: ReadonlySet<string> = new Set(RICH_TEXT_TAGS);
const DROPPED: ReadonlySet<string> = new Set(RICH_TEXT_DROPPED_WITH_CONTENT);
/** Block elements a browser does not nest inside an open <p>: starting one closes the paragraph. */
const CLOSES_PARAGRAPH: ReadonlySet<string> = new Set(['p', 'ul', 'ol', 'h2', 'h3', 'blockquote', 'li']);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

const allowedName = (name: string): RichTextTag | undefined => {
  const mapped = RICH_TEXT_TAG_ALIASES[name] ?? name;
  return ALLOWED.has(mapped) ? (mapped as RichTextTag) : undefined;
};

/**
 * The About/Contact text as it may be stored (spec 2.6): only the core/rich-text.ts allow-list
 * survives; other elements are unwrapped (their text kept), script-like ones removed with their
 * content, every attribute dropped except a link's http(s)/mailto href, and every link gets
 * rel="noopener". The result is serialized afresh, so it is well formed and fully escaped.
 */
export function sanitizeRichText(html: string): string {
  const out: string[] = [];
  const open: RichTextTag[] = [];
  const closeTo = (index: number) => {
    while (open.length > index) out.push(`</${open.pop()!}>`);
  };
  const lastIndexOf = (name: RichTextTag, stopAtList = false) => {
    for (let k = open.length - 1; k >= 0; k--) {
      if (open[k] === name) return k;
      if (stopAtList && (open[k] === 'ul' || open[k] === 'ol')) return -1;
    }
    return -1;
  };

  const tokens = tokenizeHtml(html);
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.type === 'text') {
      out.push(escapeText(token.text));
      continue;
    }
    if (token.type === 'start' && DROPPED.has(token.name)) {
      t = skipElement(tokens, t);
      continue;
    }
    const name = allowedName(token.name);
    if (!name) continue;
    if (token.type === 'end') {
      const index = lastIndexOf(name);
      if (index !== -1) closeTo(index);
      continue;
    }
    if (name === 'br') {
      out.push('<br>');
      continue;
    }
    if (CLOSES_PARAGRAPH.has(name) && lastIndexOf('p') !== -1) closeTo(lastIndexOf('p'));
    // A new list item closes the previous one of the same list; a new link closes an open one.
    if (name === 'li' && lastIndexOf('li', true) !== -1) closeTo(lastIndexOf('li', true));
    if (name === 'a' && lastIndexOf('a') !== -1) closeTo(lastIndexOf('a'));
    if (name === 'a') {
      const href = token.attributes.get('href')?.trim();
      out.push(href && isAllowedHref(href) ? `<a href="${escapeAttribute(href)}" rel="${RICH_TEXT_LINK_REL}">` : `<a rel="${RICH_TEXT_LINK_REL}">`);
    } else {
      out.push(`<${name}>`);
    }
    open.push(name);
  }
  closeTo(0);
  return out.join('');
}

/** The index of the last token of the element starting at `start` (its matching end tag, or the input's end). */
function skipElement(tokens: readonly HtmlToken[], start: number): number {
  const opening = tokens[start]!;
  if (opening.type !== 'start' || opening.selfClosing) return start;
  let depth = 1;
  for (let t = start + 1; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.type === 'text' || token.name !== opening.name) continue;
    if (token.type === 'start' && !token.selfClosing) depth++;
    else if (token.type === 'end' && --depth === 0) return t;
  }
  return tokens.length - 1;
}
