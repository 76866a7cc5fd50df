import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** What is wrong with an XML upload: a declaration, an undeclared entity, a file cut short, or other broken XML. */
export type XmlProblemKind = 'declaration' | 'entity' | 'unclosed' | 'malformed';

/** Why an XML upload cannot be parsed safely. */
export interface XmlProblem {
  row: number | null;
  message: string;
  kind: XmlProblemKind;
}

/** Why an XML upload cannot be parsed safely, or null when it can. */
export function xmlProblem(text: string): XmlProblem | null {
  // A DOCTYPE can declare entities (billion laughs, external files); no frequency format needs one.
  const doctype = /<!DOCTYPE|<!ENTITY/i.exec(text);
  if (doctype) {
    return { row: lineAt(text, doctype.index), kind: 'declaration', message: 'XML files with a DOCTYPE or entity declarations are refused; remove the declaration and upload again' };
  }
  const result = XMLValidator.validate(text);
  if (result === true) return undeclaredEntity(text);
  // The validator reports unclosed elements as a JSON-ish list at line 1; say which ones, at the end of the file.
  const unclosed = /^Invalid '\[(.*)\]' found/s.exec(result.err.msg);
  if (unclosed) {
    const names = [...(unclosed[1] ?? '').matchAll(/"([^"]*)"/g)].map((m) => `<${m[1]}>`).reverse();
    return {
      row: lineAt(text, text.trimEnd().length),
      kind: 'unclosed',
      message: `The XML ends before ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} closed; the file is cut short or damaged`,
    };
  }
  return { row: result.err.line, kind: 'malformed', message: `The XML is not well-formed (${result.err.msg}); the file may be cut short or damaged` };
}

/** An entity reference other than the five entities XML predefines; character references (&#60;, &#x3C;) do not match. */
const UNDECLARED_ENTITY = /&(?!(?:lt|gt|amp|quot|apos);)[A-Za-z_:][\w.:-]*;/;

/**
 * An entity the document uses without declaring it (`&xxe;`), which the validator lets through though an XML parser
 * must refuse it (XML 1.0 §4.1, WFC: Entity Declared); comments, CDATA and processing instructions are not looked in.
 */
function undeclaredEntity(text: string): XmlProblem | null {
  const plain = text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g, (m) => m.replace(/[^\n]/g, ' '));
  const entity = UNDECLARED_ENTITY.exec(plain);
  if (!entity) return null;
  const row = lineAt(text, entity.index);
  const allowed = 'only &lt; &gt; &amp; &quot; &apos; and character references such as &#60; may appear';
  return { row, kind: 'entity', message: `The XML is not well-formed at line ${row}: it uses the entity ${entity[0]}, which is not declared (${allowed})` };
}

/** Replaces the five predefined XML entities and character references (`&#60;`, `&#x3C;`); with entity processing off the parser leaves them as written. */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name] ?? whole;
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The name of the document's root element (after any declaration and comments), or null. */
export function xmlRoot(text: string): string | null {
  return /<([A-Za-z_][\w:.-]*)[\s>/]/.exec(text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''))?.[1] ?? null;
}

/**
 * The parser every upload uses: entities never expanded, values kept as text (allele 9.30 stays
 * "9.30"), attributes as `@_name`, and the named elements always read as arrays.
 */
export function uploadXmlParser(arrayElements: readonly string[], opts: { removeNSPrefix?: boolean } = {}): XMLParser {
  const arrays = new Set(arrayElements);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    processEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    removeNSPrefix: opts.removeNSPrefix ?? false,
    isArray: (name) => arrays.has(name),
  });
}
