/**
 * Server-rendered pages of the embedded provider: sign-in, sign-out, errors. Plain HTML forms and
 * an external stylesheet, no script at all, so they work under the app's CSP (script-src 'self').
 * Every interpolated value goes through `escapeHtml`.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Where the pages live: path-absolute URLs under the issuer's path (usually /oidc). */
export interface PagePaths {
  /** The issuer's path, e.g. "/oidc". */
  base: string;
  /** The app's own URL, for "back to Locus" links. */
  appUrl: string;
}

export const STYLESHEET_PATH = '/ui/sign-in.css';

/** The frame of every provider page: the app's look, the one stylesheet, no script at all. */
export function layout(paths: PagePaths, title: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(paths.base + STYLESHEET_PATH)}">
</head>
<body>
<main>
<p class="brand">Locus</p>
${content}
</main>
</body>
</html>
`;
}

export const SIGN_IN_TITLE = 'Sign in to Locus';

/** The sign-in form; `email` is put back after a failed try, the password never is. */
export function loginPage(paths: PagePaths, opts: { uid: string; email?: string; error?: string }): string {
  const action = `${paths.base}/interaction/${encodeURIComponent(opts.uid)}/login`;
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>\n` : '';
  return layout(
    paths,
    SIGN_IN_TITLE,
    `<h1>${SIGN_IN_TITLE}</h1>
${error}<form method="post" action="${escapeHtml(action)}" autocomplete="on" novalidate>
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(opts.email ?? '')}"${opts.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.email ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** A page with a heading, a message and a link back to the app (expired interaction, throttling…). */
export function messagePage(paths: PagePaths, opts: { title: string; message: string; linkText?: string }): string {
  return layout(
    paths,
    opts.title,
    `<h1>${escapeHtml(opts.title)}</h1>
<p class="error" role="alert">${escapeHtml(opts.message)}</p>
<p><a href="${escapeHtml(paths.appUrl)}/">${escapeHtml(opts.linkText ?? 'Return to Locus')}</a></p>`,
  );
}

/**
 * The end-session confirmation. `form` is oidc-provider's own empty form (id "op.logoutForm", its
 * action and the one-time xsrf secret, no script); the buttons submit it through `form=`.
 */
export function logoutPage(paths: PagePaths, form: string): string {
  return layout(
    paths,
    'Sign out of Locus',
    `<h1>Sign out of Locus</h1>
<p>Do you want to sign out?</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>`,
  );
}

export function signedOutPage(paths: PagePaths): string {
  return layout(
    paths,
    'Signed out',
    `<h1>You are signed out</h1>
<p>Your Locus session has ended.</p>
<p><a href="${escapeHtml(paths.appUrl)}/">Sign in again</a></p>`,
  );
}

/** oidc-provider's error page (renderError): the OAuth error code and description, escaped. */
export function errorPage(paths: PagePaths, out: { error?: unknown; error_description?: unknown }): string {
  const description = out.error_description ? `<dd>${escapeHtml(out.error_description)}</dd>` : '';
  return layout(
    paths,
    'Sign-in error',
    `<h1>Something went wrong</h1>
<p>Locus could not complete the sign-in request.</p>
<dl><dt>${escapeHtml(out.error ?? 'server_error')}</dt>${description}</dl>
<p><a href="${escapeHtml(paths.appUrl)}/">Return to Locus</a></p>`,
  );
}
