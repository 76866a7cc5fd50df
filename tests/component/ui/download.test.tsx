import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileNameFromDisposition, saveResponseAsFile } from '../../../src/ui/download';

afterEach(() => vi.restoreAllMocks());

describe('fileNameFromDisposition (RFC 6266)', () => {
  it.each([
    ['attachment; filename="report.pdf"', 'report.pdf'],
    ['attachment; filename=report.pdf', 'report.pdf'],
    [`attachment; filename="_valuation.pdf"; filename*=UTF-8''%C3%89valuation%20%282024%29.pdf`, 'Évaluation (2024).pdf'],
    [`attachment; filename*=utf-8''S%C3%B8k.pdf; filename="S_k.pdf"`, 'Søk.pdf'],
    ['attachment; filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'],
    // A malformed escape falls back to the plain name; a path never reaches the save dialog.
    [`attachment; filename="plain.pdf"; filename*=UTF-8''%E0%A4%A.pdf`, 'plain.pdf'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
  ])('%s → %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });

  it('uses the fallback when the header names no file', () => {
    expect(fileNameFromDisposition(null, 'citation')).toBe('citation');
    expect(fileNameFromDisposition('attachment', 'citation')).toBe('citation');
  });
});

describe('saveResponseAsFile', () => {
  it('hands the body to the browser as a Blob URL under the header\u2019s file name', async () => {
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:file');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const saved: { href: string; download: string; inDocument: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });
    const response = new Response('%PDF-1.7', { headers: { 'content-disposition': 'attachment; filename="report.pdf"' } });
    await expect(saveResponseAsFile(response)).resolves.toBe('report.pdf');
    expect(saved).toEqual([{ href: 'blob:file', download: 'report.pdf', inDocument: true }]);
    expect(await (createObjectURL.mock.calls[0]![0] as Blob).text()).toBe('%PDF-1.7');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
