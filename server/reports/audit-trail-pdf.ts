import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { AuditExport } from '../audit/audit-export';

const MARGIN = 36;
const GREY = '#555';

/** A row's changes, one per line: "Status: Pending → Approved". */
const changesCell = (changes: AuditExport['rows'][number]['changes']): TableCell =>
  changes.length === 0 ? { text: '—', color: GREY } : { stack: changes.map((c) => ({ text: [{ text: `${c.field}: `, bold: true }, `${c.before} → ${c.after}`] })) };

/**
 * An exported trail as a PDF (issue 18): the verdict of the hash chain first, where a reader looks, then
 * the rows oldest first; every page names the trail and says "Page n of m", so a missing page shows.
 */
export function auditTrailDocument(trail: AuditExport): TDocumentDefinitions {
  const verdict: Content = {
    text: trail.verification.text,
    bold: true,
    color: trail.verification.intact ? '#1b5e20' : '#b00020',
    margin: [0, 6, 0, 6],
  };
  const header = ['Row', 'When', 'Who', 'Record', 'Action', 'Changes'].map((text) => ({ text, bold: true }));
  const body: TableCell[][] = trail.rows.map((r) => [
    String(r.seq),
    r.when,
    r.who,
    { text: [{ text: `${r.recordType}\n`, color: GREY }, r.record] },
    r.action,
    changesCell(r.changes),
  ]);
  return {
    info: { title: trail.title, creator: 'Locus' },
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [MARGIN, MARGIN + 12, MARGIN, MARGIN],
    header: () => ({ text: trail.title, fontSize: 8, color: GREY, margin: [MARGIN, 20, MARGIN, 0] }),
    footer: (page: number, pages: number) => ({
      columns: [
        { text: `Exported by ${trail.exportedBy}, ${trail.exportedAt} (${trail.timeZone})`, fontSize: 8, color: GREY },
        { text: `Page ${page} of ${pages}`, alignment: 'right', fontSize: 8 },
      ],
      margin: [MARGIN, 10, MARGIN, 0],
    }),
    content: [
      { text: trail.title, fontSize: 14, bold: true },
      { text: `Exported by ${trail.exportedBy} on ${trail.exportedAt}. Times are in ${trail.timeZone}.`, margin: [0, 4, 0, 0] },
      verdict,
      trail.rows.length === 0
        ? { text: 'No changes recorded in this trail.', italics: true }
        : {
            table: { headerRows: 1, dontBreakRows: true, widths: ['auto', 'auto', 'auto', 'auto', 'auto', '*'], body: [header, ...body] },
            layout: 'lightHorizontalLines',
            fontSize: 8,
          },
    ],
  };
}
