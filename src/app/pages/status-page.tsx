import type { ReactNode } from 'react';

/** A full-screen message outside the layout: loading the account, or sign-in refused. */
export function StatusPage({ title, children, busy = false }: { title: string; children?: ReactNode; busy?: boolean }) {
  return (
    <main className="status-page" aria-busy={busy}>
      <div className="status-page__card">
        <p className="status-page__brand">Locus</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
