import type { BrowserContext, Page } from 'playwright-core';

/** Fills the embedded provider's sign-in page (the browser has been redirected there). */
export async function signInOnProviderPage(page: Page, email: string, password: string): Promise<void> {
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The access token the SPA keeps in session storage (spec 9), or undefined. */
export async function storedAccessToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i)!;
      if (key.startsWith('oidc.user:')) return (JSON.parse(sessionStorage.getItem(key)!) as { access_token?: string }).access_token;
    }
    return undefined;
  });
}

/** Signs in from the root; accepts the licence when it is shown (first sign-in of that account). */
export async function signIn(context: BrowserContext, baseUrl: string, email: string, password: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(baseUrl);
  await signInOnProviderPage(page, email, password);
  const accept = page.getByRole('button', { name: 'I accept' });
  const signOut = page.getByRole('button', { name: 'Sign out' });
  // Locator waits, not expect.poll: this also runs in beforeAll, outside any test.
  await accept.or(signOut).first().waitFor({ timeout: 20_000 });
  if (await accept.isVisible()) await accept.click();
  await signOut.waitFor();
  return page;
}

