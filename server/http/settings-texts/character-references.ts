/**
 * HTML character references (`&amp;`, `&#60;`, `&#x3C;`) as the WHATWG tokenizer decodes them,
 * for the named references an editor or a person is likely to write. An unknown name stays as
 * written (the sanitizer then escapes its `&`), which is safe: it can only ever be text.
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  bull: '\u2022',
  middot: '\u00b7',
  deg: '\u00b0',
  euro: '\u20ac',
  pound: '\u00a3',
  sect: '\u00a7',
  para: '\u00b6',
  times: '\u00d7',
  colon: ':',
  sol: '/',
  Tab: '\t',
  NewLine: '\n',
};

/** Names browsers also decode without the semicolon (the legacy ones among those above). */
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg', 'times', 'deg', 'sect', 'para', 'pound', 'laquo', 'raquo', 'middot']);

const REFERENCE = /&(?:#(\d+);?|#[xX]([0-9a-fA-F]+);?|([A-Za-z][A-Za-z0-9]*)(;?))/g;

function codePoint(value: number): string {
  // Spec: NUL, surrogates and values past Unicode become U+FFFD.
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(value);
}

/**
 * Decodes the references in `text`. In an attribute value a legacy reference without `;` that is
 * followed by `=` or an alphanumeric stays as written (`?a=1&copy=2`), as in browsers.
 */
export function decodeCharacterReferences(text: string, inAttribute = false): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined, semicolon: string, offset: number) => {
    if (dec !== undefined) return codePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return codePoint(Number.parseInt(hex, 16));
    if (semicolon && Object.hasOwn(NAMED, name!)) return NAMED[name!]!;
    if (!semicolon && LEGACY.has(name!)) {
      const next = text[offset + whole.length] ?? '';
      if (inAttribute && /[=A-Za-z0-9]/.test(next)) return whole;
      return NAMED[name!]!;
    }
    return whole;
  });
}
