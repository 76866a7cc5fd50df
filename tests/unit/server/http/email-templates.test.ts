import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_HOOKS,
  placeholdersIn,
  renderTemplate,
  sampleValues,
  unknownPlaceholderMessage,
} from '../../../../core/schemas/email-templates';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let adminAll: string;
let adminOrg: string;
let reader: string;
let outsider: string;

const HIT_OFFERS = '{recipientName}, {caseId}, {hitUrl}, {analysis}, {probability}, {publishedBy}, {comments}';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id })).id);
  adminOrg = t.verifier.issue((await createUser(db, { accessGroupId: admins.id, organizationIds: [org.id] })).id);
  const readers = await createAccessGroup(db, { grants: { EmailTemplates: ['Read', 'Add', 'Edit', 'Delete'] } });
  reader = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: readers.id })).id);
  outsider = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db)).id })).id);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

describe('e-mail templates API', () => {
  let hitTemplateId: string;

  it('adds the default template of each hook (201) and lists them by hook', async () => {
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      const res = await call('POST', '/api/email-templates', adminAll, template);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ ...template, version: 1 });
      if (template.hook === 'hit-published') hitTemplateId = res.json().id;
    }
    const list = await call('GET', '/api/email-templates', adminOrg);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      count: 3,
      items: [
        { hook: 'hit-published', subject: 'Hit published in case {caseId}' },
        { hook: 'hit-retracted', subject: 'Hit retracted in case {caseId}' },
        { hook: 'password-link', subject: 'Set your Locus password' },
      ],
    });
    expect(list.json().items[0]).not.toHaveProperty('body');
  });

  it('refuses a second template for the same hook (409)', async () => {
    const res = await call('POST', '/api/email-templates', adminAll, { hook: 'hit-published', subject: 'Again', body: 'Hi' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('A template for hit-published already exists; edit that one instead');
  });

  it('refuses a body using a placeholder its hook does not fill, naming it and what the hook offers (400)', async () => {
    const res = await call('PUT', `/api/email-templates/${hitTemplateId}`, adminAll, { hook: 'hit-published', subject: 'Hit {caseId}', body: 'Dear {foo},', version: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: `Unknown placeholder {foo}; hit-published offers ${HIT_OFFERS}`,
      details: [{ path: '/body', message: `Unknown placeholder {foo}; hit-published offers ${HIT_OFFERS}` }],
    });
  });

  it('refuses another hook\u2019s placeholder in the subject (400)', async () => {
    const res = await call('POST', '/api/email-templates', adminAll, { hook: 'password-link', subject: 'Case {caseId}', body: 'Use {link}' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Unknown placeholder {caseId}; password-link offers {recipientName}, {link}, {expiresAt}');
  });

  it('refuses an unknown hook and empty fields with field messages (400)', async () => {
    const res = await call('POST', '/api/email-templates', adminAll, { hook: 'case-closed', subject: ' ', body: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { path: '/hook', message: 'Locus sends e-mails only on hit-published, hit-retracted, password-link' },
        { path: '/subject', message: 'Required' },
        { path: '/body', message: 'Required' },
      ]),
    );
  });

  it('saves with the version read and refuses a stale one (409)', async () => {
    const body = 'Dear {recipientName}, see {hitUrl}';
    const saved = await call('PUT', `/api/email-templates/${hitTemplateId}`, adminAll, { hook: 'hit-published', subject: 'Hit in {caseId}', body, version: 1 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ subject: 'Hit in {caseId}', body, version: 2 });
    const stale = await call('PUT', `/api/email-templates/${hitTemplateId}`, adminAll, { hook: 'hit-published', subject: 'Old', body, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect((await call('GET', `/api/email-templates/${hitTemplateId}`, reader)).json()).toMatchObject({ subject: 'Hit in {caseId}' });
  });

  it('lets users read by their grant, but only an administrator with scope All change templates (spec 6)', async () => {
    expect((await call('GET', '/api/email-templates', reader)).statusCode).toBe(200);
    expect((await call('GET', '/api/email-templates', outsider)).statusCode).toBe(403);
    for (const token of [adminOrg, reader]) {
      expect((await call('POST', '/api/email-templates', token, { hook: 'password-link', subject: 'x', body: 'y' })).statusCode).toBe(403);
      expect((await call('PUT', `/api/email-templates/${hitTemplateId}`, token, { hook: 'hit-published', subject: 'x', body: 'y', version: 2 })).statusCode).toBe(403);
      expect((await call('DELETE', `/api/email-templates/${hitTemplateId}`, token)).statusCode).toBe(403);
    }
  });

  it('deletes a template (204); it is gone afterwards (404)', async () => {
    expect((await call('DELETE', `/api/email-templates/${hitTemplateId}`, adminAll)).statusCode).toBe(204);
    expect((await call('GET', `/api/email-templates/${hitTemplateId}`, adminAll)).statusCode).toBe(404);
  });
});

describe('placeholders and renderTemplate', () => {
  it('finds each {name} once, ignoring braces that hold no name', () => {
    expect(placeholdersIn('{a} {b1} {a} { c } {1x} {}')).toEqual(['a', 'b1']);
  });

  it('fills the placeholders it has values for and leaves the rest as written', () => {
    expect(renderTemplate('Dear {recipientName}, case {caseId} {unknown}', { recipientName: 'Ada', caseId: 'C-1' })).toBe('Dear Ada, case C-1 {unknown}');
    expect(renderTemplate('{toString} {constructor}', {})).toBe('{toString} {constructor}');
  });

  it('lists several unknown placeholders together', () => {
    expect(unknownPlaceholderMessage('password-link', '{a} {link} {b}')).toBe('Unknown placeholders {a}, {b}; password-link offers {recipientName}, {link}, {expiresAt}');
  });

  it('ships default templates that use only their hook\u2019s placeholders and fill completely with samples', () => {
    expect(DEFAULT_EMAIL_TEMPLATES.map((d) => d.hook).sort()).toEqual(Object.keys(EMAIL_HOOKS).sort());
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      expect(unknownPlaceholderMessage(template.hook, `${template.subject}\n${template.body}`)).toBeNull();
      expect(placeholdersIn(renderTemplate(template.body, sampleValues(template.hook)))).toEqual([]);
    }
  });
});
