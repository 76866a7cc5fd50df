import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../../server/http/content-disposition';
import { UPLOAD_LIMIT_BYTES } from '../../../../server/app';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { multipartBody } from '../../../helpers/multipart';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let adminAll: string;
let adminOrg: string;
let granted: string;

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const DOCX = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(60, 1)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0)]);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id })).id);
  adminOrg = t.verifier.issue((await createUser(db, { accessGroupId: admins.id, organizationIds: [org.id] })).id);
  const citationRole = await createAccessGroup(db, { grants: { Citations: ['Read', 'Add', 'Edit', 'Delete'] } });
  granted = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: citationRole.id })).id);
});
afterAll(() => t.close());

async function post(url: string, token: string, fields: Record<string, string>, file?: { name: string; bytes: Buffer; type?: string }) {
  const body = await multipartBody(fields, file);
  return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
}
const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

describe('citations API', () => {
  let id: string;

  it('adds a citation with its PDF (201) and lists it without the bytes', async () => {
    const res = await post('/api/citations', adminAll, { title: 'Butler, Advanced Topics in Forensic DNA Typing' }, { name: 'Évaluation (2024).pdf', bytes: PDF, type: 'text/html' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ title: 'Butler, Advanced Topics in Forensic DNA Typing', fileName: 'Évaluation (2024).pdf', fileSize: PDF.length, contentType: 'application/pdf', version: 1 });
    id = res.json().id;
    const list = await call('GET', '/api/citations', adminAll);
    expect(list.json()).toEqual({ count: 1, items: [{ id, title: 'Butler, Advanced Topics in Forensic DNA Typing', fileName: 'Évaluation (2024).pdf', fileSize: PDF.length, version: 1 }] });
  });

  it('downloads the file as an attachment with its original name and type, never sniffed', async () => {
    const res = await call('GET', `/api/citations/${id}/download`, adminAll);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    // The type comes from the checked extension, not from what the browser claimed (text/html above).
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_valuation (2024).pdf"; filename*=UTF-8''%C3%89valuation%20%282024%29.pdf`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is invisible to anyone but an administrator with scope All (403), the table included', async () => {
    for (const token of [adminOrg, granted]) {
      expect((await call('GET', '/api/citations', token)).statusCode).toBe(403);
      expect((await call('GET', `/api/citations/${id}`, token)).statusCode).toBe(403);
      expect((await call('GET', `/api/citations/${id}/download`, token)).statusCode).toBe(403);
      expect((await post('/api/citations', token, { title: 'x' })).statusCode).toBe(403);
      expect((await call('DELETE', `/api/citations/${id}`, token)).statusCode).toBe(403);
    }
  });

  it.each([
    ['a program', 'setup.exe', EXE, 'setup.exe is a program, not a document, and cannot be attached'],
    ['a program named like a PDF', 'paper.pdf', EXE, 'paper.pdf is a program, not a document, and cannot be attached'],
    ['a web page', 'paper.html', Buffer.from('<!doctype html><script>alert(1)</script>'), /^paper\.html cannot be attached: a citation takes a document \(\.pdf, \.doc, \.docx/],
    ['a web page named .txt', 'notes.txt', Buffer.from('  <html><script>alert(1)</script>'), 'notes.txt is not a .txt document (its content does not match its name) and cannot be attached'],
    ['a PDF that is not one', 'paper.pdf', Buffer.from('just text'), 'paper.pdf is not a .pdf document (its content does not match its name) and cannot be attached'],
    ['an empty file', 'paper.pdf', Buffer.alloc(0), 'paper.pdf is empty'],
  ])('refuses %s with a message (400)', async (_what, name, bytes, message) => {
    const res = await post('/api/citations', adminAll, { title: 'Refused' }, { name, bytes });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  it('refuses a missing title with Required (400)', async () => {
    const res = await post('/api/citations', adminAll, { title: '  ' }, { name: 'a.pdf', bytes: PDF });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: '/title', message: 'Required' }]);
  });

  it('refuses a file over the upload limit (413)', async () => {
    const res = await post('/api/citations', adminAll, { title: 'Huge' }, { name: 'huge.pdf', bytes: Buffer.concat([PDF, Buffer.alloc(UPLOAD_LIMIT_BYTES)]) });
    expect(res.statusCode).toBe(413);
  });

  it('adds a citation without a file, whose download is 404, then attaches one', async () => {
    const created = await post('/api/citations', adminAll, { title: 'Gill et al. 2006' });
    expect(created.json()).toMatchObject({ fileName: null, fileSize: null, version: 1 });
    const citation = created.json().id as string;
    const missing = await call('GET', `/api/citations/${citation}/download`, adminAll);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Citation "Gill et al. 2006" has no attached file');
    const attached = await post(`/api/citations/${citation}/file`, adminAll, { version: '1' }, { name: 'gill.docx', bytes: DOCX });
    expect(attached.statusCode).toBe(200);
    expect(attached.json()).toMatchObject({ fileName: 'gill.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', version: 2 });
  });

  it('renames with the version read, replaces the file, and refuses stale versions (409)', async () => {
    const renamed = await call('PUT', `/api/citations/${id}`, adminAll, { title: 'Butler 2012', version: 1 });
    expect(renamed.json()).toMatchObject({ title: 'Butler 2012', fileName: 'Évaluation (2024).pdf', version: 2 });
    expect((await call('PUT', `/api/citations/${id}`, adminAll, { title: 'Stale', version: 1 })).statusCode).toBe(409);
    expect((await post(`/api/citations/${id}/file`, adminAll, { version: '1' }, { name: 'new.pdf', bytes: PDF })).statusCode).toBe(409);
    const replaced = await post(`/api/citations/${id}/file`, adminAll, { version: '2' }, { name: 'C:\\papers\\butler.pdf', bytes: PDF });
    expect(replaced.json()).toMatchObject({ title: 'Butler 2012', fileName: 'butler.pdf', version: 3 });
    expect((await post(`/api/citations/${id}/file`, adminAll, { version: '3' })).json().error).toBe('Choose a file to attach');
  });

  it('deletes a citation with its file (204)', async () => {
    expect((await call('DELETE', `/api/citations/${id}`, adminAll)).statusCode).toBe(204);
    expect((await call('GET', `/api/citations/${id}/download`, adminAll)).statusCode).toBe(404);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII filename and the exact UTF-8 name (RFC 5987)', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition(`Søk "x" 100%'s*.pdf`)).toBe(`attachment; filename="S_k _x_ 100_'s*.pdf"; filename*=UTF-8''S%C3%B8k%20%22x%22%20100%25%27s%2A.pdf`);
  });
});
