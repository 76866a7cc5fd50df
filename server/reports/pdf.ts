import PdfPrinter from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

// The PDF standard fonts: every reader has them, so no font file ships with the server.
const printer = new PdfPrinter({ Helvetica: { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' } });

/**
 * The standard fonts encode WinAnsi (Latin-1 and a few more) only: characters outside it, which the
 * labels and chance texts use (θ, κ, ≤, →), print as garbage, so they are spelled out.
 */
const SPELLED: Record<string, string> = { θ: 'theta', κ: 'kappa', λ: 'lambda', μ: 'mu', '≤': '<=', '≥': '>=', '→': '->', '←': '<-', '−': '-', '≈': '~' };
const NOT_WIN_ANSI = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'g');

/** Every text of a pdfmake document with the characters the standard fonts cannot print spelled out. */
export function winAnsiSafe<T>(node: T): T {
  if (typeof node === 'string') return node.replace(NOT_WIN_ANSI, (c) => SPELLED[c]!) as T;
  if (Array.isArray(node)) return node.map(winAnsiSafe) as T;
  if (node && typeof node === 'object' && Object.getPrototypeOf(node) === Object.prototype) {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, winAnsiSafe(v)])) as T;
  }
  return node;
}

/** Renders a pdfmake document (Helvetica) to bytes. */
export function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  const doc = printer.createPdfKitDocument(winAnsiSafe({ ...document, defaultStyle: { font: 'Helvetica', fontSize: 9, ...document.defaultStyle } }));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
