import { parseCountTable } from './count-table';
import { decodeText, isZip, looksBinary } from './decode';
import { detectTableFormat, detectTextLayout } from './detect';
import { parseFamiliasList, parseMerlinList } from './familias';
import { parseFamiliasProject } from './familias-project';
import { parseHaplotypeTable } from './haplotypes';
import { parseLongTable } from './long-table';
import { parsePopStr } from './popstr';
import { pickPopulation } from './populations';
import { applySampleSizes, reportMissingSampleSizes } from './sample-sizes';
import { parseStriderXml } from './strider-xml';
import { readDelimited } from './table';
import { parseWideTable } from './wide-table';
import { xmlProblem, xmlRoot } from '../xml';
import { readWorkbook } from './xlsx';
import type {
  AutosomalDraft,
  FrequencyFileInput,
  HaplotypeDraft,
  Issues,
  MarkerResolver,
  ParseContext,
  ParseFrequencyOptions,
  ParsedFrequencies,
  Table,
} from './types';

export { validateFrequencies } from './validate';
export type {
  FrequencyFileInput,
  FrequencyRowError,
  Haplotype,
  MarkerFrequencies,
  MarkerResolver,
  ParseFrequencyOptions,
  ParsedFrequencies,
  ResolvedMarker,
} from './types';

const SUPPORTED =
  'an allele × marker table, a marker/allele/frequency table, a pop.STR export, a LabRetriever count table, a Familias ' +
  'or MERLIN frequency list, a Familias project (.fam), a STRidER XML file or a Y-STR haplotype table';

/** Parses an uploaded population-statistics file (format recognised from its content) into validated frequencies or haplotypes. */
export async function parseFrequencyFile(
  input: FrequencyFileInput,
  resolveMarker: MarkerResolver,
  opts: ParseFrequencyOptions = {},
): Promise<ParsedFrequencies> {
  const issues: Issues = { errors: [], warnings: [] };
  const ctx: ParseContext = { fileName: input.fileName, resolve: resolveMarker, population: opts.population, issues };
  const draft = await parseDraft(input, ctx, opts);
  if (draft.kind === 'Autosomal' && opts.sampleSizes) {
    const companion = readDelimited(decodeText(opts.sampleSizes.bytes), issues);
    applySampleSizes(draft.markers, companion, draft.population, resolveMarker, opts.sampleSizes.fileName, issues);
  } else if (opts.sampleSizes) {
    issues.warnings.push({ row: null, message: `${opts.sampleSizes.fileName} is not used: a haplotype table counts its men itself` });
  }
  if (draft.kind === 'Autosomal') reportMissingSampleSizes(draft.markers, input.fileName, issues);
  const empty = draft.kind === 'Autosomal' ? draft.markers.length === 0 : draft.haplotypes.length === 0;
  // Checked last so a more specific reason (unknown markers, no population chosen) is not drowned out.
  if (empty && issues.errors.length === 0) {
    issues.errors.push({ row: null, message: `${input.fileName} holds no ${draft.kind === 'Autosomal' ? 'allele frequencies' : 'haplotypes'}` });
  }
  return { ...draft, errors: issues.errors, warnings: issues.warnings };
}

async function parseDraft(input: FrequencyFileInput, ctx: ParseContext, opts: ParseFrequencyOptions): Promise<AutosomalDraft | HaplotypeDraft> {
  const fail = (message: string, row: number | null = null): AutosomalDraft | HaplotypeDraft => {
    ctx.issues.errors.push({ row, message });
    return emptyDraft(opts.kind, 'Unrecognised');
  };
  const { bytes, fileName } = input;
  if (bytes.length === 0) return fail(`The file ${fileName} is empty`);
  if (isZip(bytes)) return parseWorkbook(input, ctx, opts);
  if (looksBinary(bytes)) return fail(`${fileName} is not a text file, an Excel workbook (.xlsx) or XML`);

  const text = decodeText(bytes);
  if (text.trim() === '') return fail(`The file ${fileName} is empty`);
  switch (detectTextLayout(text)) {
    case 'xml': {
      const problem = xmlProblem(text);
      if (problem) return fail(problem.message, problem.row);
      const root = xmlRoot(text);
      if (root !== 'frequencies') {
        const what = root?.endsWith('schema') ? 'an XML schema' : `XML with root element <${root ?? '?'}>`;
        return fail(`${fileName} is ${what}, not a STRidER frequency file (root element <frequencies>)`);
      }
      return parseStriderXml(text, ctx);
    }
    case 'familias-project':
      return parseFamiliasProject(text, ctx);
    case 'familias-list':
      return parseFamiliasList(text, ctx);
    case 'merlin':
      return parseMerlinList(text, ctx);
    case 'table':
      return parseTable(readDelimited(text, ctx.issues), ctx, opts, undefined) ?? fail(unrecognised(fileName));
  }
}

/** A result with nothing in it, of the kind the caller expects, so a failed upload is not also reported as the wrong kind. */
function emptyDraft(kind: 'Autosomal' | 'YStr' | undefined, format: string): AutosomalDraft | HaplotypeDraft {
  if (kind === 'YStr') return { kind: 'YStr', format, markerIds: [], markerNames: [], haplotypes: [], population: null, populations: [] };
  return { kind: 'Autosomal', format, markers: [], population: null, populations: [] };
}

/** Reads a workbook: several sheets are several populations (FORMATS.md §3), so one is chosen by name. */
async function parseWorkbook(input: FrequencyFileInput, ctx: ParseContext, opts: ParseFrequencyOptions): Promise<AutosomalDraft | HaplotypeDraft> {
  const none = emptyDraft(opts.kind, 'Excel workbook');
  let sheets;
  try {
    sheets = await readWorkbook(input.bytes);
  } catch (err) {
    ctx.issues.errors.push({ row: null, message: `${input.fileName} could not be read as an Excel workbook (${err instanceof Error ? err.message : String(err)})` });
    return none;
  }
  if (sheets.length === 0) {
    ctx.issues.errors.push({ row: null, message: `The workbook ${input.fileName} has no data` });
    return none;
  }
  if (sheets.length === 1) return parseTable(sheets[0]!.table, ctx, opts, undefined) ?? failWith(none, ctx, unrecognised(input.fileName));
  const names = sheets.map((s) => s.name);
  const pick = pickPopulation(names, opts.population);
  if (!pick.ok) {
    ctx.issues.errors.push({ row: null, message: pick.message.replace('populations', 'populations, one per sheet') });
    return { ...none, populations: names };
  }
  const sheet = sheets.find((s) => s.name === pick.population)!;
  const draft = parseTable(sheet.table, { ...ctx, population: undefined }, opts, sheet.name);
  if (!draft) return failWith({ ...none, populations: names }, ctx, `Sheet "${sheet.name}" of ${input.fileName}: ${unrecognised(input.fileName)}`);
  return { ...draft, population: sheet.name, populations: names };
}

/** Dispatches a table to its parser; null when no layout fits. `sheet` is the workbook sheet chosen as the population. */
function parseTable(table: Table, ctx: ParseContext, opts: ParseFrequencyOptions, sheet: string | undefined): AutosomalDraft | HaplotypeDraft | null {
  const format = detectTableFormat(table, ctx.resolve, opts.kind);
  switch (format) {
    case 'popstr':
      return parsePopStr(table, ctx);
    case 'long':
      return parseLongTable(table, ctx);
    case 'wide':
      return parseWideTable(table, ctx);
    case 'counts':
      return parseCountTable(table, ctx);
    case 'haplotypes': {
      const label = table.container === 'Excel' ? 'Y-STR haplotype table (Excel)' : 'Y-STR haplotype table';
      return parseHaplotypeTable(table, ctx, sheet === undefined ? { format: label } : { format: label, population: sheet });
    }
    case 'sample-sizes':
      ctx.issues.errors.push({
        row: null,
        message: `${ctx.fileName} lists sample sizes per marker but no allele frequencies; upload the frequency file and add this one as its sample-size file`,
      });
      return { kind: 'Autosomal', format: 'Sample-size table', markers: [], population: null, populations: [] };
    case null:
      return null;
  }
}

function failWith<T>(draft: T, ctx: ParseContext, message: string): T {
  ctx.issues.errors.push({ row: null, message });
  return draft;
}

function unrecognised(fileName: string): string {
  return `${fileName} is not a frequency file Locus can read; expected ${SUPPORTED}`;
}
