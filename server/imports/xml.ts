import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Why an XML upload cannot be parsed safely, or null when it can. */
export function xmlProblem(text: string): { row: number | null; message: string } | null {
  // A DOCTYPE can declare entities (billion laughs, external files); no frequency format needs one.
  const doctype = /<!DOCTYPE|<!ENTITY/i.exec(text);
  if (doctype) {
    return { row: lineAt(text, doctype.index), message: 'XML files with a DOCTYPE or entity declarations are refused; remove the declaration and upload again' };
  }
  const result = XMLValidator.validate(text);
  if (result === true) return null;
  // The validator reports unclosed elements as a JSON-ish list at line 1; say which ones, at the end of the file.
  const unclosed = /^Invalid '\[(.*)\]' found/s.exec(result.err.msg);
  if (unclosed) {
    const names = [...(unclosed[1] ?? '').matchAll(/"([^"]*)"/g)].map((m) => `<${m[1]}>`).reverse();
    return {
      row: lineAt(text, text.trimEnd().length),
      message: `The XML ends before ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} closed; the file is cut short or damaged`,
    };
  }
  return { row: result.err.line, message: `The XML is not well-formed (${result.err.msg}); the file may be cut short or damaged` };
}

/** Replaces the five predefined XML entities; with entity processing off the parser leaves them as written. */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '');
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
