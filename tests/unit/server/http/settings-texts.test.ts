import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../../../server/db/schema';
import { sanitizeRichText } from '../../../../server/http/settings-texts/sanitize-rich-text';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let adminAll: string;
let adminOrg: string;
let grantedUser: string;
let plainUser: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.insert(settings).values([
    { id: 'About', text: '<p>About Locus</p>' },
    { id: 'Contact', text: '<p>Call the lab</p>' },
  ]);
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id })).id);
  adminOrg = t.verifier.issue((await createUser(db, { scope: 'Organization', accessGroupId: admins.id, organizationIds: [org.id] })).id);
  const settingsEditors = await createAccessGroup(db, { grants: { Settings: ['Read', 'Edit'] } });
  grantedUser = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: settingsEditors.id })).id);
  plainUser = t.verifier.issue((await createUser(db, { organizationIds: [org.id], accessGroupId: (await createAccessGroup(db)).id })).id);
});
afterAll(() => t.close());

const get = (id: string, token?: string) =>
  t.app.inject({ method: 'GET', url: `/api/settings/${id}`, headers: token ? { authorization: `Bearer ${token}` } : {} });
const put = (id: string, token: string, payload: { text: string; version: number }) =>
  t.app.inject({ method: 'PUT', url: `/api/settings/${id}`, headers: { authorization: `Bearer ${token}` }, payload });

describe('GET /api/settings/:id (About us, Contact)', () => {
  it('lets every signed-in user read both texts', async () => {
    expect((await get('About', plainUser)).json()).toEqual({ id: 'About', text: '<p>About Locus</p>', version: 1 });
    expect((await get('Contact', plainUser)).json()).toEqual({ id: 'Contact', text: '<p>Call the lab</p>', version: 1 });
  });

  it('needs sign-in (401) and knows only About and Contact (400)', async () => {
    expect((await get('About')).statusCode).toBe(401);
    expect((await get('Licence', plainUser)).statusCode).toBe(400);
  });
});

describe('PUT /api/settings/:id', () => {
  it('lets an administrator with scope All save, bumping the version', async () => {
    const res = await put('Contact', adminAll, { text: '<p>Ring <strong>+47 555</strong></p>', version: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'Contact', text: '<p>Ring <strong>+47 555</strong></p>', version: 2 });
    expect((await get('Contact', plainUser)).json()).toMatchObject({ text: '<p>Ring <strong>+47 555</strong></p>', version: 2 });
  });

  it.each([
    ['an administrator with organization scope', () => adminOrg],
    ['a user granted Settings Edit', () => grantedUser],
    ['a user without grants', () => plainUser],
  ])('refuses %s (403)', async (_who, token) => {
    const res = await put('About', token(), { text: '<p>Defaced</p>', version: 1 });
    expect(res.statusCode).toBe(403);
    expect((await get('About', plainUser)).json()).toMatchObject({ text: '<p>About Locus</p>' });
  });

  it('refuses a stale version (409) and keeps the newer text', async () => {
    expect((await put('About', adminAll, { text: '<p>First</p>', version: 1 })).statusCode).toBe(200);
    const stale = await put('About', adminAll, { text: '<p>Second</p>', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatch(/changed by someone else/);
    expect((await get('About', plainUser)).json()).toMatchObject({ text: '<p>First</p>', version: 2 });
  });

  it('stores the text sanitized: scripts, event handlers and javascript: links never reach a reader', async () => {
    const { version } = (await get('About', adminAll)).json() as { version: number };
    const res = await put('About', adminAll, {
      text: '<p onclick="steal()">Hi<script>alert(1)</script> <img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a></p>',
      version,
    });
    expect(res.json().text).toBe('<p>Hi <a rel="noopener">x</a></p>');
  });

  it('reads a text that was never saved as empty (version 0), and the first save creates it', async () => {
    const fresh = await createTestApp();
    try {
      const user = await createUser(fresh.database.db, { scope: 'All', accessGroupId: (await createAccessGroup(fresh.database.db, { isAdmin: true })).id });
      const token = fresh.verifier.issue(user.id);
      const headers = { authorization: `Bearer ${token}` };
      expect((await fresh.app.inject({ method: 'GET', url: '/api/settings/About', headers })).json()).toEqual({ id: 'About', text: '', version: 0 });
      const saved = await fresh.app.inject({ method: 'PUT', url: '/api/settings/About', headers, payload: { text: '<p>New</p>', version: 0 } });
      expect(saved.json()).toEqual({ id: 'About', text: '<p>New</p>', version: 1 });
      const again = await fresh.app.inject({ method: 'PUT', url: '/api/settings/About', headers, payload: { text: '<p>Other</p>', version: 0 } });
      expect(again.statusCode).toBe(409);
    } finally {
      await fresh.close();
    }
  });
});

describe('sanitizeRichText (the allow-list of core/rich-text.ts)', () => {
  it.each([
    ['keeps the allowed elements', '<h2>Lab</h2><p>A <strong>b</strong> <em>c</em> <u>d</u><br>e</p><ul><li>f</li></ul><ol><li>g</li></ol><h3>h</h3><blockquote>i</blockquote>', '<h2>Lab</h2><p>A <strong>b</strong> <em>c</em> <u>d</u><br>e</p><ul><li>f</li></ul><ol><li>g</li></ol><h3>h</h3><blockquote>i</blockquote>'],
    ['removes script elements with their content', '<p>Hello <script>alert(1)</script>world</p>', '<p>Hello world</p>'],
    ['removes style, iframe, svg and template content', '<style>p{}</style><iframe src="x"></iframe><svg><script>a()</script></svg><template><p>t</p></template><p>ok</p>', '<p>ok</p>'],
    ['drops event handler attributes', '<p onclick="x()" style="color:red" class="c">a</p>', '<p>a</p>'],
    ['drops images (onerror) entirely', 'a<img src=x onerror=alert(1)>b', 'ab'],
    ['unwraps elements that are not allowed, keeping their text', '<span style="x"><font>big</font></span> <table><tr><td>cell</td></tr></table>', 'big cell'],
    ['drops javascript: links', '<a href="javascript:alert(1)">x</a>', '<a rel="noopener">x</a>'],
    ['drops javascript: links hidden by case, spaces and entities', '<a href=" JaVaScRiPt:alert(1)">a</a><a href="jav&#x09;ascript:alert(1)">b</a><a href="javascript&colon;alert(1)">c</a>', '<a rel="noopener">a</a><a rel="noopener">b</a><a rel="noopener">c</a>'],
    ['drops data: and vbscript: links', '<a href="data:text/html,<script>alert(1)</script>">a</a><a href="vbscript:x">b</a>', '<a rel="noopener">a</a><a rel="noopener">b</a>'],
    ['keeps http, https and mailto links with rel=noopener only', '<a href="https://lab.example/a?b=1&amp;c=2" target="_blank" onmouseover="x">w</a> <a href="mailto:lab@example.org">m</a> <a href="http://x.example">h</a>', '<a href="https://lab.example/a?b=1&amp;c=2" rel="noopener">w</a> <a href="mailto:lab@example.org" rel="noopener">m</a> <a href="http://x.example" rel="noopener">h</a>'],
    ['escapes text so it stays text', '1 < 2 &amp; 3 > 2 &lt;script&gt;', '1 &lt; 2 &amp; 3 &gt; 2 &lt;script&gt;'],
    ['escapes quotes in a link target', '<a href=\'https://x.example/"><script>\'>q</a>', '<a href="https://x.example/&quot;&gt;&lt;script&gt;" rel="noopener">q</a>'],
    ['drops comments, doctypes and processing instructions', '<!DOCTYPE html><!-- <script>x</script> --><?php x ?>ok', 'ok'],
    ['maps what editors produce onto the allow-list', '<b>bold</b><i>it</i><div>line</div><h1>Top</h1><h5>Low</h5>', '<strong>bold</strong><em>it</em><p>line</p><h2>Top</h2><h3>Low</h3>'],
    ['closes what was left open and ignores stray end tags', '<p>a<p>b</em><ul><li>c<li>d</ul><strong>e', '<p>a</p><p>b</p><ul><li>c</li><li>d</li></ul><strong>e</strong>'],
    ['keeps broken markup harmless', '<scr<script>ipt>alert(1)</script><p title="a>b">x</p><a href="https://x.example" ', 'ipt&gt;alert(1)<p>x</p>'],
    ['keeps unknown character references as text', 'caf&eacute; &#233; &foo;', 'caf&amp;eacute; é &amp;foo;'],
  ])('%s', (_what, input, expected) => {
    expect(sanitizeRichText(input)).toBe(expected);
  });

  it('is idempotent: sanitizing stored text changes nothing', () => {
    const once = sanitizeRichText('<p>a<b>b</b><a href="https://x.example?a=1&b=2">l</a> 1 < 2</p><ul><li>x<li>y');
    expect(sanitizeRichText(once)).toBe(once);
  });
});
