import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The text of a PDF as poppler reads it (Debian: poppler-utils, which `.ci/run` installs); never skipped without it. */
export function pdfToText(pdf: Buffer, pages?: { first: number; last: number }): string {
  if (!existsSync('/usr/bin/pdftotext')) throw new Error('pdftotext is missing: apt-get install -y poppler-utils (the PDF tests read the text poppler reads).');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'report-pdf-')), 'report.pdf');
  writeFileSync(file, pdf);
  const range = pages ? ['-f', String(pages.first), '-l', String(pages.last)] : [];
  return execFileSync('pdftotext', ['-layout', ...range, file, '-'], { encoding: 'utf8' });
}
