import { z } from 'zod';
import { Id } from './common';
import { requiredText } from './named-record';

/**
 * Citations (spec 2.7, 3): a published reference with its attached file. Only an administrator
 * with scope All sees or changes them (spec 6).
 */

/** The files a citation may carry, by extension: documents only. Executables, HTML and scripts are refused. */
export const CITATION_FILE_TYPES = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  txt: 'text/plain; charset=utf-8',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  csv: 'text/csv; charset=utf-8',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
} as const;
export type CitationFileExtension = keyof typeof CITATION_FILE_TYPES;

/** For the file input's `accept`: `.pdf,.doc,…`. */
export const CITATION_FILE_ACCEPT = Object.keys(CITATION_FILE_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');

/** The extension of `fileName` when it is one citations accept, else undefined. */
export function citationFileExtension(fileName: string): CitationFileExtension | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext !== undefined && Object.hasOwn(CITATION_FILE_TYPES, ext) ? (ext as CitationFileExtension) : undefined;
}

/** Why a file is refused by its name alone (the server also checks the content). */
export const refusedFileTypeMessage = (fileName: string) =>
  `${fileName} cannot be attached: a citation takes a document (${CITATION_FILE_ACCEPT.replaceAll(',', ', ')}), not programs, web pages or scripts`;

/** A row of the Citations table. */
export const CitationSummary = z
  .object({ id: Id, title: z.string(), fileName: z.string().nullable(), fileSize: z.number().int().nullable(), version: z.number().int() })
  .meta({ id: 'CitationSummary' });
export type CitationSummary = z.infer<typeof CitationSummary>;

export const Citation = CitationSummary.extend({ contentType: z.string().nullable(), updatedAt: z.iso.datetime() }).meta({ id: 'Citation' });
export type Citation = z.infer<typeof Citation>;

/** The citation's own field; the file travels beside it as a multipart part. */
export const CitationInput = z.object({ title: requiredText(500) });
export type CitationInput = z.infer<typeof CitationInput>;
