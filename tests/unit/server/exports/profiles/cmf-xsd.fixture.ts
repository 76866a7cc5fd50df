import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';

// A small validator for the parts of XML Schema the CODIS CMF schemas use (/work/shared/data/formats/cmf, read in
// place): named simple types restricting xsd:string, xsd:decimal and xsd:dateTime with enumeration, length,
// minLength, maxLength, totalDigits, fractionDigits, minExclusive and maxExclusive; elements in a sequence with
// minOccurs/maxOccurs; attributes; and xsd:unique with one-step selector and field paths.

const CMF_DIR = path.resolve(import.meta.dirname, '../../../../../../shared/data/formats/cmf');

type Node = Record<string, unknown>;
type Ordered = Record<string, unknown>[];

interface Facets {
  base: string;
  enumeration?: string[];
  length?: number;
  minLength?: number;
  maxLength?: number;
  totalDigits?: number;
  fractionDigits?: number;
  minExclusive?: string;
  maxExclusive?: string;
}

interface ElementDecl {
  name: string;
  type?: string;
  minOccurs: number;
  maxOccurs: number;
  content?: ComplexDecl;
  unique: { selector: string; field: string }[];
}

interface ComplexDecl {
  sequence: ElementDecl[];
  attributes: { name: string; type: string; required: boolean }[];
}

export interface CmfSchema {
  /** The named simple types and their facets. */
  simpleTypes: ReadonlyMap<string, Facets>;
  root: ElementDecl;
  /** Every problem of a document, as `path: what`; empty when the document is valid. */
  validate(xml: string): string[];
}

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const local = (name: string) => name.replace(/^\w+:/, '');
const occurs = (value: unknown, fallback: number) => (value === undefined ? fallback : value === 'unbounded' ? Infinity : Number(value));

/** Reads one of the CMF schemas of shared/data/formats/cmf (CMF-2017.xsd, CODIS-32.AppendixBexample.xsd, …). */
export function readCmfSchema(file: string): CmfSchema {
  const xsd = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false }).parse(
    readFileSync(path.join(CMF_DIR, file), 'utf8'),
  )['xsd:schema'] as Node;

  const simpleTypes = new Map<string, Facets>();
  for (const t of list(xsd['xsd:simpleType'] as Node | Node[])) {
    const r = t['xsd:restriction'] as Node;
    const facet = (name: string) => (r[`xsd:${name}`] as Node | undefined)?.['@_value'] as string | undefined;
    const number = (name: string) => (facet(name) === undefined ? undefined : Number(facet(name)));
    simpleTypes.set(t['@_name'] as string, {
      base: r['@_base'] as string,
      ...(r['xsd:enumeration'] ? { enumeration: list(r['xsd:enumeration'] as Node | Node[]).map((e) => e['@_value'] as string) } : {}),
      ...Object.fromEntries(
        (['length', 'minLength', 'maxLength', 'totalDigits', 'fractionDigits'] as const).flatMap((n) => (number(n) === undefined ? [] : [[n, number(n)]])),
      ),
      ...Object.fromEntries((['minExclusive', 'maxExclusive'] as const).flatMap((n) => (facet(n) === undefined ? [] : [[n, facet(n)]]))),
    });
  }
  const complexTypes = new Map(list(xsd['xsd:complexType'] as Node | Node[]).map((t) => [t['@_name'] as string, t]));

  const complex = (node: Node): ComplexDecl => ({
    sequence: list((node['xsd:sequence'] as Node | undefined)?.['xsd:element'] as Node | Node[] | undefined).map(element),
    attributes: list(node['xsd:attribute'] as Node | Node[] | undefined).map((a) => ({ name: a['@_name'] as string, type: a['@_type'] as string, required: a['@_use'] === 'required' })),
  });
  const element = (node: Node): ElementDecl => {
    const type = node['@_type'] as string | undefined;
    const inline = node['xsd:complexType'] as Node | undefined;
    const named = type === undefined ? undefined : complexTypes.get(type);
    return {
      name: node['@_name'] as string,
      ...(type !== undefined && !named ? { type } : {}),
      minOccurs: occurs(node['@_minOccurs'], 1),
      maxOccurs: occurs(node['@_maxOccurs'], 1),
      ...(inline || named ? { content: complex((inline ?? named)!) } : {}),
      unique: list(node['xsd:unique'] as Node | Node[] | undefined).map((u) => ({
        selector: local((u['xsd:selector'] as Node)['@_xpath'] as string),
        field: local((u['xsd:field'] as Node)['@_xpath'] as string),
      })),
    };
  };
  const root = element(xsd['xsd:element'] as Node);

  const checkValue = (where: string, typeName: string, value: string): string[] => {
    const facets = simpleTypes.get(typeName);
    if (!facets) return typeName === 'xsd:boolean' && !/^(true|false|1|0)$/.test(value) ? [`${where}: "${value}" is not a boolean`] : [];
    const problems: string[] = [];
    const chars = [...value].length;
    if (facets.enumeration && !facets.enumeration.includes(value)) problems.push(`${where}: "${value}" is not one of ${typeName}`);
    if (facets.length !== undefined && chars !== facets.length) problems.push(`${where}: "${value}" is not ${facets.length} characters long`);
    if (facets.minLength !== undefined && chars < facets.minLength) problems.push(`${where}: "${value}" is shorter than ${facets.minLength}`);
    if (facets.maxLength !== undefined && chars > facets.maxLength) problems.push(`${where}: "${value}" is longer than ${facets.maxLength}`);
    if (facets.base === 'xsd:decimal') {
      const [whole = '', fraction = ''] = value.replace(/^[+-]/, '').split('.');
      if (!/^\d+(\.\d+)?$/.test(value.replace(/^[+-]/, ''))) problems.push(`${where}: "${value}" is not a decimal`);
      if (facets.totalDigits !== undefined && (whole.replace(/^0+(?=\d)/, '') + fraction).length > facets.totalDigits) problems.push(`${where}: "${value}" has too many digits`);
      if (facets.fractionDigits !== undefined && fraction.length > facets.fractionDigits) problems.push(`${where}: "${value}" has too many fraction digits`);
    }
    if (facets.base === 'xsd:dateTime') {
      // The schema's bounds have no time zone, nor do the values Locus writes: compared as text.
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)) problems.push(`${where}: "${value}" is not a dateTime without time zone`);
      else if ((facets.minExclusive && value <= facets.minExclusive) || (facets.maxExclusive && value >= facets.maxExclusive)) problems.push(`${where}: "${value}" is out of range`);
    }
    return problems;
  };

  const checkElement = (where: string, decl: ElementDecl, node: Record<string, unknown>): string[] => {
    const children = (node[decl.name] as Ordered).filter((c) => !('#text' in c));
    const text = (node[decl.name] as Ordered).flatMap((c) => ('#text' in c ? [String(c['#text'])] : [])).join('');
    const attributes = (node[':@'] ?? {}) as Record<string, string>;
    if (!decl.content) return decl.type ? checkValue(where, decl.type, text) : [];
    const problems: string[] = [];
    for (const a of decl.content.attributes) {
      if (a.name in attributes) problems.push(...checkValue(`${where}@${a.name}`, a.type, attributes[a.name]!));
      else if (a.required) problems.push(`${where}: no ${a.name} attribute`);
    }
    for (const name of Object.keys(attributes).filter((n) => n !== 'xmlns' && !decl.content!.attributes.some((a) => a.name === n))) problems.push(`${where}: unexpected attribute ${name}`);
    let i = 0;
    for (const child of decl.content.sequence) {
      let count = 0;
      while (i < children.length && Object.keys(children[i]!)[0] === child.name) {
        problems.push(...checkElement(`${where}/${child.name}[${count + 1}]`, child, children[i]!));
        count += 1;
        i += 1;
      }
      if (count < child.minOccurs) problems.push(`${where}: ${count} ${child.name}, at least ${child.minOccurs} needed`);
      if (count > child.maxOccurs) problems.push(`${where}: ${count} ${child.name}, at most ${child.maxOccurs} allowed`);
    }
    if (i < children.length) problems.push(`${where}: unexpected ${Object.keys(children[i]!)[0]} (out of order or unknown)`);
    for (const u of decl.unique) {
      const values = children
        .filter((c) => Object.keys(c)[0] === u.selector)
        .map((c) => (c[u.selector] as Ordered).find((f) => Object.keys(f)[0] === u.field))
        .map((f) => (f ? ((f[u.field] as Ordered)[0]?.['#text'] as string | undefined) : undefined))
        .filter((v) => v !== undefined);
      const repeated = values.filter((v, k) => values.indexOf(v) !== k);
      if (repeated.length > 0) problems.push(`${where}: ${u.selector}/${u.field} not unique (${[...new Set(repeated)].join(', ')})`);
    }
    return problems;
  };

  return {
    simpleTypes,
    root,
    validate(xml) {
      const doc = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false }).parse(xml) as Ordered;
      const top = doc.filter((n) => !('?xml' in n));
      if (top.length !== 1 || Object.keys(top[0]!)[0] !== root.name) return [`the document element is not ${root.name}`];
      return checkElement(`/${root.name}`, root, top[0]!);
    },
  };
}

/** The values a named simple type of the schema enumerates. */
export function enumeration(schema: CmfSchema, typeName: string): string[] {
  const values = schema.simpleTypes.get(typeName)?.enumeration;
  if (!values) throw new Error(`${typeName} has no enumeration`);
  return values;
}

/** A facet of a named simple type (maxLength of SpecimenIDType, …). */
export function facet(schema: CmfSchema, typeName: string, name: 'maxLength' | 'minLength'): number | undefined {
  return schema.simpleTypes.get(typeName)?.[name];
}

/** The declaration of an element on a path of names from the root (`SPECIMEN`, `LOCUS`, `ALLELE`). */
export function elementDecl(schema: CmfSchema, ...names: string[]): ElementDecl {
  let decl = schema.root;
  for (const name of names) {
    const next = decl.content?.sequence.find((e) => e.name === name);
    if (!next) throw new Error(`${decl.name} has no ${name}`);
    decl = next;
  }
  return decl;
}
