/** The route exists but the user's role does not allow it (spec 6). */
export function ForbiddenPage({ title }: { title: string }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <div className="notice notice--warning" role="alert">
        <p>You do not have permission to open this page.</p>
        <p>If you need it for your work, ask your administrator to extend your role.</p>
      </div>
    </section>
  );
}
