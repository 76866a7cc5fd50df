import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';

// The example files live beside the repository in /work/shared (read-only); reach them from this file.
const SHARED = new URL('../../../../../../shared/data/formats/', import.meta.url);

/** A file of shared/data/formats as text, without a leading BOM. */
export function readSharedFile(path: string): string {
  return readFileSync(new URL(path, SHARED), 'utf8').replace(/^\uFEFF/, '');
}

/** Parses XML as the importers will: entities untouched, attributes kept, text not coerced to numbers. */
export function parseXml(text: string): unknown {
  return new XMLParser({
    processEntities: false,
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    isArray: (tag) => ['Set', 'Locus', 'locus', 'xsd:simpleType', 'xsd:enumeration'].includes(tag),
  }).parse(text);
}

/** One locus of an OSIRIS LadderInfo kit, in document order. */
export interface LadderLocus {
  name: string;
  yLinked: boolean;
}

/** The single kit (`Set`) of an OSIRIS `*_LadderInfo.xml` file: its name and loci in document order. */
export function readLadderInfo(file: string): { name: string; loci: LadderLocus[] } {
  const doc = parseXml(readSharedFile(`kits/${file}`)) as {
    KitData: { Kits: { Set: { Name: string; Locus: { Name: string; YLinked?: string }[] }[] } };
  };
  const sets = doc.KitData.Kits.Set;
  if (sets.length !== 1) throw new Error(`${file}: expected one kit, found ${sets.length}`);
  const set = sets[0]!;
  return { name: set.Name, loci: set.Locus.map((l) => ({ name: l.Name, yLinked: l.YLinked === 'true' })) };
}
