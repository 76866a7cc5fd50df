import { readFileSync } from 'node:fs';
import type { MarkerResolver, ResolvedMarker } from '../../../../../server/imports/frequencies';

/** A marker of the test catalogue with the spellings a lab's configuration would list for it. */
interface CatalogueMarker {
  name: string;
  kind: 'Autosomal' | 'YStr';
  aliases?: string[];
}

const autosomal = (name: string, aliases: string[] = []): CatalogueMarker => ({ name, kind: 'Autosomal', aliases });
const y = (name: string, aliases: string[] = []): CatalogueMarker => ({ name, kind: 'YStr', aliases });

/** A realistic catalogue: expanded CODIS core, European Standard Set, Penta D/E, SE33, Amelogenin and the Y markers of Yfiler Plus / PowerPlex Y23. */
export const REALISTIC_MARKERS: CatalogueMarker[] = [
  ...['CSF1PO', 'D1S1656', 'D2S441', 'D2S1338', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D10S1248', 'D12S391', 'D13S317', 'D16S539', 'D18S51', 'D19S433', 'D21S11', 'D22S1045', 'FGA', 'SE33'].map((n) => autosomal(n)),
  autosomal('TH01', ['THO1', 'TH 01']),
  autosomal('TPOX', ['TP0X']),
  autosomal('vWA', ['VWA']),
  autosomal('Penta D', ['PentaD', 'PENTA_D', 'Penta_D', 'PENTAD']),
  autosomal('Penta E', ['PentaE', 'PENTA_E', 'Penta_E', 'PENTAE']),
  autosomal('Amelogenin', ['AMEL', 'AM']),
  // Deliberately without DYS385a/DYS385b aliases: split copy columns must be recognised by the parser itself.
  y('DYS385', ['DYS385 a/b', 'DYS385a/b']),
  y('DYF387S1', ['DYF387S1 a/b', 'DYF387S1a/b']),
  y('DYS389I', ['DYS389 I']),
  y('DYS389II', ['DYS389 II']),
  y('YGATAH4', ['Y-GATA-H4']),
  y('Yindel', ['Y indel']),
  ...['DYS19', 'DYS390', 'DYS391', 'DYS392', 'DYS393', 'DYS437', 'DYS438', 'DYS439', 'DYS448', 'DYS449', 'DYS456', 'DYS458', 'DYS460', 'DYS481', 'DYS518', 'DYS533', 'DYS549', 'DYS570', 'DYS576', 'DYS627', 'DYS635', 'DYS643'].map((n) => y(n)),
];

/** Extra autosomal STRs of kinship kits and research panels (norSTR, pop.STR, NIST 1036), which a kinship lab also keeps. */
export const KINSHIP_MARKERS: CatalogueMarker[] = [
  'APOAI1', 'D10S1435', 'D10S2325', 'D11S1304', 'D11S2368', 'D11S4463', 'D11S554', 'D12ATA63', 'D12S297', 'D13S325',
  'D14S1426', 'D14S1434', 'D15S659', 'D15S822', 'D17S1301', 'D17S906', 'D17S974', 'D18S1364', 'D19S253', 'D1S1627',
  'D1S1677', 'D1S1679', 'D20S482', 'D21S102', 'D21S2055', 'D22GATA198B05', 'D2S1360', 'D2S1776', 'D2S427', 'D3S1744',
  'D3S2406', 'D3S3045', 'D3S3053', 'D3S4529', 'D3S4545', 'D4S2364', 'D4S2366', 'D4S2408', 'D5S1457', 'D5S2500',
  'D5S2800', 'D6S1017', 'D6S1027', 'D6S1043', 'D6S474', 'D6S477', 'D7S1517', 'D7S2201', 'D7S3048', 'D8S1132',
  'D9S1118', 'D9S1120', 'D9S1122', 'D9S2157', 'F13A01', 'F13B', 'FESFPS', 'LPL', 'Penta B', 'Penta C',
].map((n) => autosomal(n));

/** Lower case without separators, as the caller's resolver compares names (GENETICS.md: case-insensitive, aliases). */
const key = (name: string) => name.replace(/[\s_.-]+/g, '').toLowerCase();

/** A resolver over a catalogue, the way the caller builds one; `extraAliases` maps an alias to a catalogue name. */
export function makeResolver(markers: CatalogueMarker[], extraAliases: Record<string, string> = {}): MarkerResolver {
  const byKey = new Map<string, ResolvedMarker>();
  for (const m of markers) {
    const resolved: ResolvedMarker = { id: `id-${m.name}`, name: m.name, kind: m.kind };
    for (const spelling of [m.name, ...(m.aliases ?? [])]) byKey.set(key(spelling), resolved);
  }
  for (const [alias, name] of Object.entries(extraAliases)) {
    const target = byKey.get(key(name));
    if (target) byKey.set(key(alias), target);
  }
  return (name) => byKey.get(key(name));
}

/** The resolver most tests use. */
export const resolveMarker = makeResolver(REALISTIC_MARKERS);

/** The realistic catalogue plus the kinship markers. */
export const resolveKinshipMarker = makeResolver([...REALISTIC_MARKERS, ...KINSHIP_MARKERS]);

/** The id the fixture gives a catalogue marker. */
export const idOf = (name: string) => `id-${name}`;

const SHARED_DATA = new URL('../../../../../../shared/data/', import.meta.url);

/** Reads a file of /work/shared/data (never copied into the repository) as an upload. */
export function sharedFile(path: string): { fileName: string; bytes: Uint8Array } {
  return { fileName: path.split('/').pop() ?? path, bytes: readFileSync(new URL(path, SHARED_DATA)) };
}

/** An upload made of text (UTF-8). */
export function textFile(fileName: string, text: string): { fileName: string; bytes: Uint8Array } {
  return { fileName, bytes: new TextEncoder().encode(text) };
}
