/**
 * The rich text of the About us and Contact pages (spec 2.6): the one allow-list that both the
 * server's sanitizer and the SPA's DOMPurify configuration use, so what is stored and what is drawn
 * can never disagree. Everything not listed here is dropped (its text is kept, markup removed).
 */

/** Elements kept as they are. */
export const RICH_TEXT_TAGS = ['p', 'br', 'strong', 'em', 'u', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'blockquote'] as const;
export type RichTextTag = (typeof RICH_TEXT_TAGS)[number];

/**
 * Elements kept under an allowed name with the same meaning: what browsers' editors produce (bold
 * → <b>, a new line → <div>) and headings of other levels.
 */
export const RICH_TEXT_TAG_ALIASES: Readonly<Record<string, RichTextTag>> = { b: 'strong', i: 'em', div: 'p', h1: 'h2', h4: 'h3', h5: 'h3', h6: 'h3' };

/** Elements removed together with their content: their text is code or styling, never prose. */
export const RICH_TEXT_DROPPED_WITH_CONTENT = ['script', 'style', 'template', 'iframe', 'object', 'embed', 'noscript', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'svg', 'math', 'select'] as const;

/** The only attribute kept: a link's target. Every link also gets `rel` below. */
export const RICH_TEXT_LINK_ATTRIBUTE = 'href';
export const RICH_TEXT_LINK_REL = 'noopener';

const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];

/** Most characters a saved text may have (the About and Contact pages are a few paragraphs). */
export const RICH_TEXT_MAX_LENGTH = 100_000;

/**
 * Whether `href` may be a link target: an absolute http, https or mailto URL. Browsers ignore
 * whitespace and control characters inside a scheme (`java\tscript:`), so those are refused outright.
 */
export function isAllowedHref(href: string): boolean {
  const trimmed = href.trim();
  if (/[\u0000-\u001f\u007f\s]/.test(trimmed)) return false;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed)?.[1];
  return scheme !== undefined && LINK_SCHEMES.includes(`${scheme.toLowerCase()}:`);
}

/** The message the link dialog shows for a refused link target. */
export const LINK_TARGET_MESSAGE = 'A link must start with http://, https:// or mailto:';
