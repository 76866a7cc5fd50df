import { SAMPLE_TYPES, type SampleType } from '../../../core/schemas/profiles';
import { CMF_SPECIMEN_CATEGORY } from '../../exports/profiles/cmf-values';
import { decodeXmlEntities, uploadXmlParser, xmlProblem, xmlRoot, type XmlProblem } from '../xml';
import type { ProfileBuilder } from './profile-builder';
import type { Issues } from './types';

// CODIS Interface Specification (CMF 3.2), Appendix B schema (data/formats/cmf/CODIS-32.AppendixBexample.xsd):
// CODISImportFile → header (HEADERVERSION … KIT?) → SPECIMEN+ (@CASEID, SPECIMENID, SPECIMENCATEGORY, LOCUS+ →
// LOCUSNAME, READINGBY, READINGDATETIME, ALLELE+ → ALLELEVALUE). CMF 3.3 keeps this layout, so any version is read.

type XmlText = string | { '#text'?: string } | undefined;
interface XmlAllele {
  ALLELEVALUE?: XmlText;
}
interface XmlLocus {
  LOCUSNAME?: XmlText;
  ALLELE?: XmlAllele[];
  '@_KIT'?: string;
}
interface XmlSpecimen {
  SPECIMENID?: XmlText;
  SPECIMENCATEGORY?: XmlText;
  LOCUS?: XmlLocus[];
}
interface XmlImportFile {
  HEADERVERSION?: XmlText;
  KIT?: XmlText;
  SPECIMEN?: XmlSpecimen[];
}

const CMF_ROOT = 'CODISImportFile';
const RAPID_ROOT = 'CODISRapidImportFile';
/** STRidER's and STRBase's frequency export (data/formats/frequencies-formats/strider-2015.xml), read by population upload. */
const STRIDER_ROOT = 'frequencies';

/** Reads a CODIS CMF file into the builder and returns its format name; problems of the whole file go to `issues`. */
export function parseCmfXml(text: string, fileName: string, builder: ProfileBuilder, issues: Issues): string {
  const fail = (message: string, row: number | null = null) => {
    issues.errors.push({ row, message });
    return 'XML';
  };
  const problem = xmlProblem(text);
  if (problem) return fail(xmlProblemMessage(problem), problem.row);
  const root = (xmlRoot(text) ?? '?').split(':').pop();
  if (root === RAPID_ROOT) {
    return fail(`${fileName} is a Rapid DNA CMF file (${RAPID_ROOT}), which Locus does not import; export the profiles as CODIS CMF 3.2 (${CMF_ROOT})`);
  }
  if (root === STRIDER_ROOT) {
    // As for a frequency table in CSV (detect.ts): point to where the file belongs.
    return fail(`${fileName} is a STRidER allele-frequency file (root element <${STRIDER_ROOT}>), not profiles; upload it to a population instead`);
  }
  if (root !== CMF_ROOT) {
    const what = root === 'schema' ? 'an XML schema (XSD)' : `XML with root element <${root}>`;
    return fail(`${fileName} is ${what}, not a CODIS CMF profile file (root element <${CMF_ROOT}>)`);
  }
  const parser = uploadXmlParser(['SPECIMEN', 'LOCUS', 'ALLELE'], { removeNSPrefix: true });
  const doc = parser.parse(text) as Record<string, XmlImportFile | string>;
  const file = typeof doc[CMF_ROOT] === 'object' ? doc[CMF_ROOT] : {};
  const format = `CODIS CMF ${textOf(file.HEADERVERSION) || '3.2'} XML`;
  const specimens = file.SPECIMEN ?? [];
  if (specimens.length === 0) {
    issues.errors.push({ row: null, message: `${fileName} holds no SPECIMEN: a CMF file lists at least one specimen with its loci` });
    return format;
  }
  const lines = new ElementLines(text);
  const headerKit = textOf(file.KIT) || null;
  specimens.forEach((specimen, i) => readSpecimen(specimen, i, { builder, issues, lines, headerKit }));
  return format;
}

interface SpecimenContext {
  builder: ProfileBuilder;
  issues: Issues;
  lines: ElementLines;
  headerKit: string | null;
}

function readSpecimen(specimen: XmlSpecimen, index: number, { builder, issues, lines, headerKit }: SpecimenContext): void {
  const line = lines.specimen(index);
  const id = textOf(specimen.SPECIMENID);
  if (id === '') {
    issues.errors.push({ row: line, message: `Specimen ${index + 1} has no SPECIMENID; skipped` });
    return;
  }
  const category = textOf(specimen.SPECIMENCATEGORY);
  const sampleType = toSampleType(category);
  if (category !== '' && sampleType === null) {
    issues.warnings.push({ row: line, sample: id, message: `${id}: the specimen category "${category}" is not a Locus sample type; choose one when adding` });
  }
  const loci = specimen.LOCUS ?? [];
  // LOCUS@KIT overrides the header's KIT for that locus; one kit for every locus is the profile's kit.
  const locusKits = new Set(loci.map((l) => decodeXmlEntities(l['@_KIT'] ?? headerKit ?? '').trim()));
  const kit = locusKits.size === 1 ? [...locusKits][0] || null : headerKit;
  const sample = builder.newSample(id, line, { sampleType, kit });
  loci.forEach((locus, j) => {
    const locusLine = lines.locus(index, j);
    const name = textOf(locus.LOCUSNAME);
    if (name === '') {
      builder.sampleError(sample, `Specimen ${id}: locus ${j + 1} has no LOCUSNAME, so its alleles belong to no marker`, locusLine);
      return;
    }
    const values = (locus.ALLELE ?? []).map((a) => textOf(a.ALLELEVALUE));
    values.forEach((value, k) => {
      if (value === '') builder.sampleError(sample, `Specimen ${id}, locus ${name}: allele ${k + 1} has no ALLELEVALUE`, locusLine, name);
    });
    builder.addMarker(sample, name, values, locusLine, 'refuse');
  });
}

/**
 * A parse failure says where, since that is where the file is cut short or broken; the DOCTYPE refusal and an
 * undeclared entity (which names its line) read as they are.
 */
function xmlProblemMessage({ message, row, kind }: XmlProblem): string {
  if (kind === 'declaration' || kind === 'entity') return message;
  const detail = /^The XML is not well-formed \((.*)\);/.exec(message)?.[1] ?? message.replace(/^The XML/, 'the XML').replace(/; the file is cut short or damaged$/, '');
  return `The file is cut short or is not well-formed XML at line ${row ?? 1}: ${detail}`;
}

/** An element's text with the predefined entities and character references replaced (`&lt;8`, `&#60;8` → `<8`) and spaces trimmed. */
function textOf(node: XmlText): string {
  const raw = typeof node === 'object' ? node['#text'] : node;
  return decodeXmlEntities(String(raw ?? '')).trim();
}

/** The Locus sample type a CODIS specimen category names (same words; CODIS compares them case-sensitively, Locus does not). */
function toSampleType(category: string): SampleType | null {
  const wanted = category.toLowerCase();
  // CODIS's own names first (the export writes remains as "Unidentified Person"), then Locus's.
  const fromCodis = SAMPLE_TYPES.find((t) => CMF_SPECIMEN_CATEGORY[t]?.toLowerCase() === wanted);
  return fromCodis ?? SAMPLE_TYPES.find((t) => t.toLowerCase() === wanted) ?? null;
}

/**
 * Lines of the SPECIMEN and LOCUS start tags in document order. The parser keeps no positions, but the n-th
 * SPECIMEN it returns is the n-th start tag in the text (comments blanked out), and likewise its loci.
 */
class ElementLines {
  private readonly specimens: number[];
  private readonly loci: number[][];

  constructor(text: string) {
    const plain = text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, (m) => m.replace(/[^\n]/g, ' '));
    const starts = (name: string) => [...plain.matchAll(new RegExp(`<(?:[\\w.-]+:)?${name}[\\s/>]`, 'g'))].map((m) => m.index);
    const specimenAt = starts('SPECIMEN');
    const locusAt = starts('LOCUS');
    const lineOf = lineCounter(plain);
    this.specimens = specimenAt.map(lineOf);
    // Both lists are in document order: each locus belongs to the last specimen that starts before it.
    this.loci = specimenAt.map(() => []);
    let owner = -1;
    for (const at of locusAt) {
      while (owner + 1 < specimenAt.length && specimenAt[owner + 1]! < at) owner++;
      if (owner >= 0) this.loci[owner]!.push(lineOf(at));
    }
  }

  specimen(index: number): number | null {
    return this.specimens[index] ?? null;
  }

  locus(specimen: number, index: number): number | null {
    return this.loci[specimen]?.[index] ?? null;
  }
}

/** A function from a character offset to its 1-based line, by binary search over the line starts. */
function lineCounter(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
