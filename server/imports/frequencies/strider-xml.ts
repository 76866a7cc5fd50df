import { FrequencyBuilder } from './frequency-builder';
import { DecimalReader } from './numbers';
import { distinct, pickPopulation } from './populations';
import { decodeXmlEntities, lineAt, uploadXmlParser } from '../xml';
import type { AutosomalDraft, ParseContext } from './types';

interface XmlFrequency {
  '@_allele'?: string;
  '#text'?: string;
}
interface XmlOrigin {
  '@_name'?: string;
  '@_n'?: string;
  frequency?: XmlFrequency[];
}
interface XmlMarker {
  name?: string;
  origin?: XmlOrigin[];
}

/** STRidER's rare-allele bins: `1` stands for every allele below the listed ones, `99` for every one above (FORMATS.md 4c). */
const RARE_BINS = new Set(['1', '99']);

// Layout: `frequencies` → `marker` (`name`, `alleles`, `origin name n` → `frequency allele`). The caller has already
// refused DOCTYPEs and malformed XML (../xml.ts); entities are never expanded.
/** Reads one origin (population) of a STRidER frequency XML, with the origin's n as N. */
export function parseStriderXml(text: string, ctx: ParseContext): AutosomalDraft {
  const { errors, warnings } = ctx.issues;
  const parser = uploadXmlParser(['marker', 'origin', 'frequency']);
  const doc = parser.parse(text) as { frequencies?: { marker?: XmlMarker[] } | string };
  const root = typeof doc.frequencies === 'object' ? doc.frequencies : {};
  const markers = root.marker ?? [];
  const populations = distinct(markers.flatMap((m) => (m.origin ?? []).map((o) => decodeXmlEntities(o['@_name'] ?? ''))).filter((p) => p !== ''));
  const draft: AutosomalDraft = { kind: 'Autosomal', format: 'STRidER XML', markers: [], population: null, populations };
  const pick = pickPopulation(populations, ctx.population);
  if (!pick.ok) {
    errors.push({ row: null, message: pick.message });
    return draft;
  }
  draft.population = pick.population;

  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const numbers = new DecimalReader();
  const withRareBins: string[] = [];
  for (const xmlMarker of markers) {
    const name = decodeXmlEntities(String(xmlMarker.name ?? '')).trim();
    // fast-xml-parser keeps no positions; the marker's <name> element is the closest line to point at.
    const row = lineAt(text, Math.max(0, text.indexOf(`<name>${xmlMarker.name ?? ''}</name>`)));
    const origin = (xmlMarker.origin ?? []).find((o) => decodeXmlEntities(o['@_name'] ?? '') === pick.population);
    if (!origin || (origin.frequency ?? []).length === 0) {
      warnings.push({ row, marker: name, message: `${name} has no allele frequencies${pick.population ? ` for ${pick.population}` : ''} in this file; skipped` });
      continue;
    }
    const marker = builder.marker(name, row);
    if (!marker) continue;
    const n = /^\d+$/.test(origin['@_n'] ?? '') ? Number(origin['@_n']) : null;
    builder.setSampleSize(marker, n !== null && n > 0 ? n : null);
    for (const f of origin.frequency ?? []) {
      const label = decodeXmlEntities(f['@_allele'] ?? '');
      const allele = builder.allele(marker, label, row);
      if (allele === null) continue;
      const read = numbers.read(String(f['#text'] ?? ''));
      if (!read.ok) {
        errors.push({ row, marker: marker.name, message: `Frequency of allele ${allele} at ${marker.name}: ${read.reason}` });
        builder.markUnreadable(marker);
        continue;
      }
      if (read.value === 0) continue;
      if (RARE_BINS.has(allele) && !withRareBins.includes(marker.name)) withRareBins.push(marker.name);
      builder.add(marker, allele, read.value, row);
    }
  }
  if (withRareBins.length > 0) {
    warnings.push({
      row: null,
      message: `${withRareBins.join(', ')}: alleles 1 and 99 are STRidER's rare-allele bins (all shorter / all longer alleles) and are kept as listed`,
    });
  }
  draft.markers = builder.build();
  return draft;
}
