import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { E2E_ADMIN, E2E_LOCKED_USER } from './fixtures';
import { signInOnProviderPage, storedAccessToken } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('signing in through the embedded provider', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterAll(() => context.close());

  it('takes a newcomer from the root to sign-in and into the app as the administrator', async () => {
    await page.goto(baseUrl);
    await signInOnProviderPage(page, E2E_ADMIN.email, E2E_ADMIN.password);
    // First sign-in: the licence is shown until accepted.
    await page.getByRole('button', { name: 'I accept' }).click();
    // The role name comes from the permissions claim's Name.
    await expect.poll(() => page.getByTitle('Your role').textContent()).toBe('Role: Administrator');
    await page.screenshot({ path: '.tmp/e2e-signed-in.png' });
    expect(new URL(page.url()).pathname).not.toMatch(/^\/authentication/);
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  });

  it('opened at 127.0.0.1 (the server’s address, not PUBLIC_URL), lands on PUBLIC_URL and stays signed in there', async () => {
    // The e2e server listens on 127.0.0.1 with PUBLIC_URL at localhost: sign-in used to fail at the other name.
    const atAddress = baseUrl.replace('//localhost:', '//127.0.0.1:');
    expect(atAddress).not.toBe(baseUrl);
    await page.goto(`${atAddress}/?from=address`);
    await expect.poll(() => new URL(page.url()).origin).toBe(new URL(baseUrl).origin);
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  });

  it('stays signed in after a reload', async () => {
    const before = new URL(page.url()).pathname;
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe(before);
    expect(page.url()).not.toContain('/oidc/');
  });

  it('renews a short-lived access token silently, without leaving the page', async () => {
    // The e2e server issues 75 s tokens; the session renews a third of that (25 s) before expiry.
    const first = await storedAccessToken(page);
    expect(first).toBeTruthy();
    const path = new URL(page.url()).pathname;
    await expect.poll(() => storedAccessToken(page), { timeout: 60_000, interval: 1000 }).not.toBe(first);
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  });

  it('signs out through the provider and reaches the logged-out page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/oidc\//);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/authentication\/logged-out/);
    await expect.poll(() => page.getByText('You have signed out.').isVisible()).toBe(true);
    expect(await storedAccessToken(page)).toBeUndefined();
  });
});

describe('sign-in from a deep link and refusals', () => {
  it('returns to a deep link opened while signed out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/all/hits/published?from=e2e`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signInOnProviderPage(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.waitForURL((url) => url.pathname === '/all/hits/published');
    expect(new URL(page.url()).search).toBe('?from=e2e');
    await context.close();
  });

  it('shows an error for a wrong password and keeps the e-mail', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/authentication`);
    await signInOnProviderPage(page, E2E_ADMIN.email, 'not-the-password');
    await expect.poll(() => page.getByText('The e-mail or password is incorrect.').isVisible()).toBe(true);
    expect(await page.getByLabel('Email').inputValue()).toBe(E2E_ADMIN.email);
    await context.close();
  });

  it('does not let a locked user sign in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/authentication`);
    await signInOnProviderPage(page, E2E_LOCKED_USER.email, E2E_LOCKED_USER.password);
    await expect.poll(() => page.getByText('This account is locked. Contact your administrator.').isVisible()).toBe(true);
    expect(page.url()).toContain('/oidc/');
    await context.close();
  });
});
