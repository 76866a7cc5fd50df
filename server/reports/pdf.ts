import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PdfPrinter from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

/**
 * DejaVu Sans Condensed, embedded (subset) in every PDF: the reports print θ, κ, μ, σ, →, ≤, ×, the minus sign and
 * raised exponents (10⁻⁶), which the PDF standard fonts (WinAnsi) lack and pdfmake's Roboto misses in part (→).
 * Condensed, so the per-marker tables keep their columns on a portrait page.
 */
const fontFile = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`));

export const REPORT_FONT = 'DejaVuSansCondensed';

const printer = new PdfPrinter({
  [REPORT_FONT]: {
    normal: fontFile('DejaVuSansCondensed'),
    bold: fontFile('DejaVuSansCondensed-Bold'),
    italics: fontFile('DejaVuSansCondensed-Oblique'),
    bolditalics: fontFile('DejaVuSansCondensed-BoldOblique'),
  },
});

/** Renders a pdfmake document in the embedded Unicode font to bytes. */
export function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  const doc = printer.createPdfKitDocument({ ...document, defaultStyle: { font: REPORT_FONT, fontSize: 9, ...document.defaultStyle } });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
