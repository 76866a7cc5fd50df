import { decodeCharacterReferences } from './character-references';

/**
 * An HTML tokenizer following the states of the WHATWG tokenizer (HTML Living Standard §13.2.5)
 * that matter for a fragment of prose: data, tag open, end tag open, tag name, attribute
 * name/value (quoted and unquoted), self-closing, comments, bogus comments, doctypes, and the
 * RAWTEXT/RCDATA content of script, style, textarea, title and the like. Text and attribute values
 * come out decoded. The sanitizer re-serializes from these tokens, so no input byte reaches the
 * output unescaped, whatever this tokenizer makes of malformed markup.
 */

export type HtmlToken =
  | { type: 'text'; text: string }
  | { type: 'start'; name: string; attributes: ReadonlyMap<string, string>; selfClosing: boolean }
  | { type: 'end'; name: string };

/** Elements whose content is raw text up to their own end tag (RCDATA ones decode references). */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);
const RCDATA = new Set(['textarea', 'title']);

const isAlpha = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';

export function tokenizeHtml(input: string): HtmlToken[] {
  // The input stream preprocessing: CR LF and lone CR become LF.
  const html = input.replace(/\r\n?/g, '\n');
  const tokens: HtmlToken[] = [];
  let i = 0;
  let text = '';

  const flushText = () => {
    if (text) tokens.push({ type: 'text', text: decodeCharacterReferences(text) });
    text = '';
  };
  /** Skips to just after the next `>` (bogus comments, doctypes, `<?…>`). */
  const skipPast = (terminator: string) => {
    const end = html.indexOf(terminator, i);
    i = end === -1 ? html.length : end + terminator.length;
  };

  const readComment = () => {
    i += 4; // `<!--`
    // `<!-->` and `<!--->` end the comment at once.
    if (html.startsWith('>', i)) return void (i += 1);
    if (html.startsWith('->', i)) return void (i += 2);
    const close = /--!?>/g;
    close.lastIndex = i;
    const found = close.exec(html);
    i = found ? found.index + found[0].length : html.length;
  };

  /** Raw text up to `</name` followed by whitespace, `/` or `>` (case-insensitive), or the end. */
  const readRawText = (name: string, decode: boolean) => {
    const end = new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, 'ig');
    end.lastIndex = i;
    const found = end.exec(html);
    const stop = found ? found.index : html.length;
    const raw = html.slice(i, stop);
    if (raw) tokens.push({ type: 'text', text: decode ? decodeCharacterReferences(raw) : raw });
    i = stop;
  };

  /** A start or end tag whose name starts at `i`; returns null at the end of input (the tag is dropped). */
  const readTag = (end: boolean): HtmlToken | null => {
    let name = '';
    while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') name += html[i++]!.toLowerCase();
    const attributes = new Map<string, string>();
    let selfClosing = false;
    for (;;) {
      while (isSpace(html[i])) i++;
      if (i >= html.length) return null;
      if (html[i] === '>') {
        i++;
        break;
      }
      if (html[i] === '/') {
        i++;
        if (html[i] === '>') {
          selfClosing = true;
          i++;
          break;
        }
        continue;
      }
      // Attribute name: a leading `=` belongs to the name (spec), later ones start the value.
      let attr = html[i++]!.toLowerCase();
      while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') attr += html[i++]!.toLowerCase();
      while (isSpace(html[i])) i++;
      let value = '';
      if (html[i] === '=') {
        i++;
        while (isSpace(html[i])) i++;
        const quote = html[i];
        if (quote === '"' || quote === "'") {
          const close = html.indexOf(quote, i + 1);
          if (close === -1) return null;
          value = html.slice(i + 1, close);
          i = close + 1;
        } else {
          const start = i;
          while (i < html.length && !isSpace(html[i]) && html[i] !== '>') i++;
          value = html.slice(start, i);
        }
      }
      // The first of duplicate attributes wins (spec).
      if (!attributes.has(attr)) attributes.set(attr, decodeCharacterReferences(value, true));
    }
    return end ? { type: 'end', name } : { type: 'start', name, attributes, selfClosing };
  };

  while (i < html.length) {
    const c = html[i]!;
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }
    const next = html[i + 1];
    if (isAlpha(next) || (next === '/' && isAlpha(html[i + 2]))) {
      flushText();
      const isEnd = next === '/';
      i += isEnd ? 2 : 1;
      const tag = readTag(isEnd);
      if (!tag) break;
      tokens.push(tag);
      if (tag.type === 'start' && !tag.selfClosing && (RAW_TEXT.has(tag.name) || RCDATA.has(tag.name))) readRawText(tag.name, RCDATA.has(tag.name));
      if (tag.type === 'start' && tag.name === 'plaintext') {
        tokens.push({ type: 'text', text: html.slice(i) });
        i = html.length;
      }
    } else if (next === '!') {
      flushText();
      if (html.startsWith('<!--', i)) readComment();
      else skipPast('>'); // doctype, CDATA outside foreign content, bogus comment
    } else if (next === '?' || (next === '/' && html[i + 2] !== undefined)) {
      // `<?…>` and `</` + non-letter are bogus comments; `</>` is dropped the same way.
      flushText();
      skipPast('>');
    } else {
      // A `<` that opens nothing is text.
      text += c;
      i++;
    }
  }
  flushText();
  return tokens;
}
