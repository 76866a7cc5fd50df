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


/** Calls the API from the page as the signed-in user (bearer token and the XSRF header, as the SPA does). */
export async function apiFetch<T = unknown>(
  page: Page,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Record<string, string> }> {
  const token = await storedAccessToken(page);
  return page.evaluate(
    async ([m, u, b, t, extra]) => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const headers: Record<string, string> = { authorization: `Bearer ${t}`, 'x-xsrf-token': xsrf, ...extra };
      if (b !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(u, { method: m, headers, ...(b !== undefined ? { body: JSON.stringify(b) } : {}) });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as never, headers: Object.fromEntries(res.headers.entries()) };
    },
    [method, url, body, token, extraHeaders] as const,
  );
}

/** Uploads a file (multipart field "file") with form fields from the page as the signed-in user. */
export async function apiUpload<T = unknown>(page: Page, url: string, file: { name: string; text: string }, fields: Record<string, string> = {}) {
  const token = await storedAccessToken(page);
  return page.evaluate(
    async ([u, f, fs, t]) => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const form = new FormData();
      for (const [k, v] of Object.entries(fs)) form.append(k, v);
      form.append('file', new Blob([f.text]), f.name);
      const res = await fetch(u, { method: 'POST', body: form, headers: { authorization: `Bearer ${t}`, 'x-xsrf-token': xsrf } });
      return { status: res.status, body: (await res.json()) as never, headers: Object.fromEntries(res.headers.entries()) } as { status: number; body: T; headers: Record<string, string> };
    },
    [url, file, fields, token] as const,
  );
}

/**
 * Imports a profile file into a case as the import screen does: the import call parses it (saving
 * nothing), then the parsed profiles are added with the Approval-Token it answered. Resolves to the
 * new profiles' ids by sample name.
 */
export async function importProfiles(page: Page, caseId: string, file: { name: string; text: string }, sampleType = 'Reference'): Promise<Record<string, string>> {
  type Parsed = { suggestedChemistryId: string; profiles: { profileId: string; markerValues: { markerId: string; alleles: string[] }[] }[] };
  const parsed = await apiUpload<Parsed>(page, '/api/profiles/import', file);
  if (parsed.status !== 200) throw new Error(`import of ${file.name} answered ${parsed.status}: ${JSON.stringify(parsed.body)}`);
  const body = {
    caseId,
    chemistryId: parsed.body.suggestedChemistryId,
    sampleType,
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: null,
    comments: '',
    profiles: parsed.body.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues })),
  };
  const added = await apiFetch<{ items: { id: string; profileId: string }[] }>(page, 'POST', '/api/profiles', body, { approval: parsed.headers['approval-token']! });
  if (added.status !== 201) throw new Error(`adding ${file.name} answered ${added.status}: ${JSON.stringify(added.body)}`);
  return Object.fromEntries(added.body.items.map((p) => [p.profileId, p.id]));
}

/** Approves a pending profile as the signed-in reviewer, with its markers as entered (the review itself is not under test). */
export async function approveProfile(page: Page, id: string, comments = 'Checked against the electropherogram'): Promise<void> {
  const profile = await apiFetch<{ version: number; markerValues: { markerId: string; alleles: string[] }[] }>(page, 'GET', `/api/profiles/${id}`);
  const approved = await apiFetch(page, 'POST', `/api/profiles/${id}/approve`, {
    version: profile.body.version,
    comments,
    markerValues: profile.body.markerValues.map((v) => ({ markerId: v.markerId, alleles: v.alleles })),
  });
  if (approved.status !== 200) throw new Error(`approving ${id} answered ${approved.status}: ${JSON.stringify(approved.body)}`);
}

/** Chooses a profile for a role in the calculator: types its name in the role's search, then picks it from the list. */
export async function chooseCalculatorProfile(page: Page, role: string, option: string): Promise<void> {
  await page.getByLabel(`Find a profile for ${role}`).fill(option.split(' ')[0]!);
  const select = page.getByRole('combobox', { name: role, exact: true });
  await select.locator('option', { hasText: option }).first().waitFor({ state: 'attached', timeout: 10_000 });
  await select.selectOption({ label: option });
}
