import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { isAllowedHref, RICH_TEXT_DROPPED_WITH_CONTENT, RICH_TEXT_LINK_ATTRIBUTE, RICH_TEXT_LINK_REL, RICH_TEXT_TAG_ALIASES, RICH_TEXT_TAGS } from '../../../core/rich-text';

/**
 * The SPA side of core/rich-text.ts: every About/Contact text is drawn through DOMPurify with the
 * same allow-list the server stores with, and the editor's output is cleaned the same way (with
 * <b>, <i>, <div> mapped onto <strong>, <em>, <p>, as the server does).
 */
const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [...RICH_TEXT_TAGS, ...Object.keys(RICH_TEXT_TAG_ALIASES)],
  ALLOWED_ATTR: [RICH_TEXT_LINK_ATTRIBUTE],
  ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  KEEP_CONTENT: true,
  // DOMPurify already drops script, style, svg… with their content; the server's list is added to it.
  ADD_FORBID_CONTENTS: [...RICH_TEXT_DROPPED_WITH_CONTENT],
  RETURN_DOM_FRAGMENT: true,
};

let purifier: Purifier | undefined;

/** A DOMPurify instance of our own, so its link hook does not touch anyone else's use of the library. */
function ownPurifier(): Purifier {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const element = node as Element;
    const href = element.getAttribute('href');
    if (href !== null && !isAllowedHref(href)) element.removeAttribute('href');
    else if (href !== null) element.setAttribute('href', href.trim());
    element.setAttribute('rel', RICH_TEXT_LINK_REL);
  });
  return purifier;
}

/** `html` reduced to the rich-text allow-list, as an HTML string safe to put into the page. */
export function sanitizeRichHtml(html: string): string {
  const fragment = ownPurifier().sanitize(html, CONFIG);
  for (const [from, to] of Object.entries(RICH_TEXT_TAG_ALIASES)) {
    for (const element of Array.from(fragment.querySelectorAll(from))) {
      const replacement = document.createElement(to);
      replacement.append(...Array.from(element.childNodes));
      element.replaceWith(replacement);
    }
  }
  const container = document.createElement('div');
  container.append(fragment);
  return container.innerHTML;
}
