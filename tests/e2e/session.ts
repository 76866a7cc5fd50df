import type { Page } from 'playwright-core';

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
