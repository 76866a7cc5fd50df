import PdfPrinter from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

// The PDF standard fonts: every reader has them, so no font file ships with the server.
const printer = new PdfPrinter({ Helvetica: { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' } });

/** Renders a pdfmake document (Helvetica) to bytes. */
export function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  const doc = printer.createPdfKitDocument({ ...document, defaultStyle: { font: 'Helvetica', fontSize: 9, ...document.defaultStyle } });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
