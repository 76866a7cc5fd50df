import { normaliseLineEndings } from './decode';
import { FrequencyBuilder } from './frequency-builder';
import { DecimalReader } from './numbers';
import type { AutosomalDraft, ParseContext } from './types';

/** Lines per locus before its alleles: name, 2 mutation rates, 2 models, allele count, 2 ranges, 2 rates2, silent flag, silent frequency, info. */
const LOCUS_HEADER_LINES = 13;

/** Whether text is a Familias 3 project file (FORMATS.md 4g): it opens with `"Output from Familias, version …"`. */
export function isFamiliasProject(text: string): boolean {
  return /^"Output from Familias/.test(text.trimStart());
}

// Persons and pedigrees come first in a fixed but unpublished order. The database starts at the
// `#FALSE# (#Databases: …)` line, laid out as pedFamilias's readFam/writeFam (magnusdv/pedFamilias) read and write it.

/** Reads the frequency database embedded in a Familias 3 `.fam` project, with DatabaseSize as N. */
export function parseFamiliasProject(text: string, ctx: ParseContext): AutosomalDraft {
  const { errors, warnings } = ctx.issues;
  const draft: AutosomalDraft = { kind: 'Autosomal', format: 'Familias project (.fam)', markers: [], population: null, populations: [] };
  const lines = normaliseLineEndings(text).split('\n').map((l) => l.trim());
  const at = (i: number) => lines[i] ?? '';
  const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1');
  // Reports a structural surprise; the rest of the file cannot be located after one.
  const broken = (i: number, expected: string) => {
    errors.push({ row: i + 1, message: `Line ${i + 1} of the Familias project should hold ${expected}, but reads "${at(i)}"` });
    return draft;
  };

  const dbLine = lines.findIndex((l) => /^#(TRUE|FALSE)#\s*\(#Databases:/.test(l));
  if (dbLine < 0) {
    errors.push({ row: null, message: 'This Familias project holds no frequency database' });
    return draft;
  }
  if (at(dbLine).startsWith('#TRUE#')) {
    errors.push({ row: dbLine + 1, message: 'This Familias project stores precomputed probabilities before its database, which cannot be read; export the database from Familias instead' });
    return draft;
  }
  const theta = /Theta\/Kinship\/Fst:\s*([\d.eE+-]+)/.exec(at(dbLine))?.[1];
  if (theta !== undefined && Number(theta) > 0) {
    warnings.push({ row: dbLine + 1, message: `The Familias database carries θ = ${theta}; θ is set per analysis in Locus and is not imported` });
  }
  const locusCount = wholeNumber(at(dbLine + 1));
  if (locusCount === null) return broken(dbLine + 1, 'the number of loci');
  let i = dbLine + 2 + (at(dbLine + 2) === '#TRUE#' ? 2 : 1);

  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const numbers = new DecimalReader();
  for (let locus = 0; locus < locusCount; locus++) {
    const nameLine = i;
    const name = unquote(at(nameLine));
    if (name === '' || !at(nameLine).startsWith('"')) return broken(nameLine, `the name of locus ${locus + 1}`);
    if (at(nameLine + 10) === '#TRUE#') {
      warnings.push({ row: nameLine + 11, marker: name, message: `${name} has a silent-allele frequency in the Familias project; it is not imported` });
    }
    const info = at(nameLine + 12);
    const alleleCount = wholeNumber(info.split('\t')[0] ?? '');
    if (alleleCount === null) return broken(nameLine + 12, `the number of alleles of ${name}`);
    const size = /DatabaseSize\s*=\s*(\d+)/.exec(info)?.[1];
    const first = nameLine + LOCUS_HEADER_LINES;
    i = first + 2 * alleleCount;
    if (alleleCount === 0) {
      warnings.push({ row: nameLine + 1, marker: name, message: `${name} has no allele frequencies in this file; skipped` });
      continue;
    }
    const marker = builder.marker(name, nameLine + 1);
    if (!marker) continue;
    if (size !== undefined && Number(size) > 0) builder.setSampleSize(marker, Number(size));
    for (let a = 0; a < alleleCount; a++) {
      const alleleLine = first + 2 * a;
      const label = at(alleleLine);
      if (!label.startsWith('"')) return broken(alleleLine, `allele ${a + 1} of ${name} in quotes`);
      const allele = builder.allele(marker, unquote(label), alleleLine + 1);
      const read = numbers.read(at(alleleLine + 1));
      if (allele === null) continue;
      if (!read.ok) {
        errors.push({ row: alleleLine + 2, marker: marker.name, message: `Frequency of allele ${allele} at ${marker.name}: ${read.reason}` });
        builder.markUnreadable(marker);
      } else if (read.value !== 0) builder.add(marker, allele, read.value, alleleLine + 2);
    }
  }
  draft.markers = builder.build();
  return draft;
}

function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
}
