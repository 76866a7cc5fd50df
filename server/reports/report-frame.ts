import type { Content, PageOrientation, TDocumentDefinitions } from 'pdfmake/interfaces';

/**
 * What frames every page of a court report (issue 18, ISO 17025 7.8): a header naming the laboratory, the
 * case(s) and the report's subject, a footer "Page n of m" (a reader sees no page is missing), and at the end
 * a signature block for who prepared and who reviewed it.
 */
export interface ReportFrame {
  title: string;
  organizationName: string;
  caseNumbers: readonly string[];
  /** What the report is about, e.g. "Hit 0190…" or "Analysis Identity". */
  subject: string;
  orientation: PageOrientation;
  content: Content[];
  signatures: readonly Signature[];
}

/** One signature line: the part (Prepared by, Reviewed by), a name and date when known, else blanks to fill in by hand. */
export interface Signature {
  part: string;
  name: string | null;
  date: string | null;
}

const MARGIN = 36;
const HEADER_HEIGHT = 30;
const GREY = '#555';

/** A section's heading; kept with what follows it (see pageBreakBefore). */
export const sectionHeading = (text: string, margin: [number, number, number, number] = [0, 10, 0, 3]): Content => ({ text, fontSize: 12, bold: true, margin, headlineLevel: 1 });

/** Date and time as a report prints them: 2026-03-01 09:00 UTC (one zone for every reader of the file). */
export const reportTime = (iso: string | Date) => `${new Date(iso).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

const blank = (text: string | null, width = 24) => text ?? '_'.repeat(width);

/** The signature block: per signature the part, the name, the date and a line to sign on; kept on one page. */
export function signatureBlock(signatures: readonly Signature[]): Content {
  return {
    unbreakable: true,
    margin: [0, 18, 0, 0],
    stack: [
      { text: 'Signatures', fontSize: 12, bold: true, margin: [0, 0, 0, 6] },
      {
        columns: signatures.map((s) => ({
          width: '*',
          stack: [
            { text: s.part, bold: true },
            { text: ['Name: ', blank(s.name)], margin: [0, 4, 0, 0] },
            { text: ['Date: ', blank(s.date, 16)], margin: [0, 4, 0, 0] },
            { text: 'Signature:', margin: [0, 14, 0, 0] },
            { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 200, y2: 0, lineWidth: 0.5 }], margin: [0, 16, 0, 0] },
          ],
        })),
        columnGap: 24,
      },
    ],
  };
}

/** The document: header and footer on every page, the content, then the signature block. */
export function framedReport(frame: ReportFrame): TDocumentDefinitions {
  const cases = frame.caseNumbers.length > 0 ? `Case ${[...new Set(frame.caseNumbers)].join(', ')}` : '';
  return {
    info: { title: frame.title, creator: 'Locus', subject: frame.subject },
    pageOrientation: frame.orientation,
    pageMargins: [MARGIN, MARGIN + HEADER_HEIGHT, MARGIN, MARGIN],
    header: (_page: number, _pages: number, pageSize: { width: number }) => ({
      margin: [MARGIN, 18, MARGIN, 0],
      stack: [
        {
          columns: [
            { text: frame.organizationName, bold: true, width: '*' },
            { text: [cases, cases ? '  ·  ' : '', frame.subject].join(''), alignment: 'center', width: 'auto' },
            { text: 'Locus', alignment: 'right', width: '*', color: GREY },
          ],
          fontSize: 8,
        },
        { canvas: [{ type: 'line', x1: 0, y1: 4, x2: pageSize.width - 2 * MARGIN, y2: 4, lineWidth: 0.5, lineColor: '#999' }] },
      ],
    }),
    footer: (currentPage: number, pageCount: number) => ({
      margin: [MARGIN, 10, MARGIN, 0],
      columns: [
        { text: frame.title, fontSize: 8, color: GREY },
        { text: `Page ${currentPage} of ${pageCount}`, alignment: 'right', fontSize: 8 },
      ],
    }),
    content: [...frame.content, signatureBlock(frame.signatures)],
    // A section's heading never stands alone at the foot of a page: it moves to the next, with its table.
    pageBreakBefore: (node) => node.headlineLevel === 1 && (node.startPosition as { verticalRatio?: number }).verticalRatio! > 0.85,
  };
}
