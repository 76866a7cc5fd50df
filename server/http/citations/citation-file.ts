import { CITATION_FILE_TYPES, citationFileExtension, refusedFileTypeMessage, type CitationFileExtension } from '../../../core/schemas/citations';
import { BadRequest } from '../errors';

export interface CheckedCitationFile {
  fileName: string;
  contentType: string;
}

const starts = (bytes: Buffer, signature: string | number[]) =>
  bytes.subarray(0, signature.length).equals(typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature));

/** Program formats refused whatever the file is called: Windows PE, ELF, Mach-O (thin and fat), scripts with #!. */
const EXECUTABLE_SIGNATURES: readonly (string | number[])[] = [
  'MZ',
  '\x7fELF',
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
  '#!',
];

const ZIP = 'PK\x03\x04';
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Markup a browser would run if the file were ever opened as a page. */
const LOOKS_LIKE_MARKUP = /^\s*<(!doctype|html|head|body|script|svg|iframe|\?xml)/i;

/** Whether the content is what the extension promises (its magic number; plain text for txt and csv). */
function contentMatches(ext: CitationFileExtension, bytes: Buffer): boolean {
  switch (ext) {
    case 'pdf':
      // Readers accept the header anywhere in the first 1024 bytes (ISO 32000 implementation note).
      return bytes.subarray(0, 1024).includes('%PDF-');
    case 'docx':
    case 'xlsx':
    case 'pptx':
    case 'odt':
    case 'ods':
    case 'odp':
      return starts(bytes, ZIP);
    case 'doc':
    case 'xls':
    case 'ppt':
      return starts(bytes, OLE2);
    case 'rtf':
      return starts(bytes, '{\\rtf');
    case 'txt':
    case 'csv': {
      if (bytes.includes(0)) return false;
      const head = bytes.subarray(0, 1024).toString('utf8').replace(/^\ufeff/, '');
      return !LOOKS_LIKE_MARKUP.test(head);
    }
  }
}

/** Keeps the last path segment of a client's file name, without control characters, at most 200 characters. */
function cleanFileName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (base.length <= 200) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
  return base.slice(0, 200 - ext.length) + ext;
}

/**
 * Decides whether an uploaded file may be a citation's attachment (documents only) and which
 * content type it is served with: from its extension, never from what the client claimed, and only
 * when the bytes agree with the extension. Refusals are 400s that say why.
 */
export function checkCitationFile(rawName: string, bytes: Buffer): CheckedCitationFile {
  const fileName = cleanFileName(rawName);
  if (!fileName) throw new BadRequest('The attached file has no name');
  const ext = citationFileExtension(fileName);
  if (ext && bytes.length === 0) throw new BadRequest(`${fileName} is empty`);
  if (ext && contentMatches(ext, bytes)) return { fileName, contentType: CITATION_FILE_TYPES[ext] };
  // Refused: say plainly when it is a program, whatever it is called.
  if (EXECUTABLE_SIGNATURES.some((signature) => starts(bytes, signature))) {
    throw new BadRequest(`${fileName} is a program, not a document, and cannot be attached`);
  }
  if (!ext) throw new BadRequest(refusedFileTypeMessage(fileName));
  throw new BadRequest(`${fileName} is not a .${ext} document (its content does not match its name) and cannot be attached`);
}
