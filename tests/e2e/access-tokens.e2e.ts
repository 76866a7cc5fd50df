/**
 * Issue 18 "Done means": a script with a personal access token lists the organization's hits with curl — the token
 * made by a signed-in user in Chromium, then used with no browser at all.
 */
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { apiFetch, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
let browser: Browser;
let context: BrowserContext;
let reviewer: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  reviewer = await signIn(context, baseUrl, 'reviewer@demo.locus.local', demoPassword);
  await reviewer.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** curl as a script runs it: the token in the Authorization header, nothing else (no cookie, no XSRF header). */
function curl(url: string, token: string): { status: number; body: unknown } {
  const out = execFileSync('curl', ['-s', '-w', '\\n%{http_code}', '-H', `Authorization: Bearer ${token}`, url], { encoding: 'utf8' });
  const at = out.lastIndexOf('\n');
  return { status: Number(out.slice(at + 1)), body: JSON.parse(out.slice(0, at)) };
}

describe('a script with a personal access token', () => {
  it('lists the organization’s hits with curl, as the user sees them, and is refused once the token is revoked', async () => {
    const orgId = /^\/([0-9a-f-]{36})/.exec(new URL(reviewer.url()).pathname)![1]!;
    const created = await apiFetch<{ id: string; token: string }>(reviewer, 'POST', '/api/me/access-tokens', { name: 'E2E LIMS', expiresInDays: 7 });
    expect(created.status).toBe(201);
    const { id, token } = created.body;

    const url = `${baseUrl}/api/organizations/${orgId}/hits?sort=date:desc&pageSize=100`;
    const seen = await apiFetch<{ items: { id: string }[]; count: number }>(reviewer, 'GET', url.slice(baseUrl.length));
    const listed = curl(url, token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(seen.body);
    expect((listed.body as { count: number }).count).toBeGreaterThanOrEqual(0);

    const revoked = await apiFetch(reviewer, 'DELETE', `/api/me/access-tokens/${id}`);
    expect(revoked.status).toBe(200);
    const refused = curl(url, token);
    expect(refused).toEqual({ status: 401, body: { error: 'This personal access token was revoked' } });
  });
});
