import { Link } from 'wouter';

interface ComingPageProps {
  /** The area, as named in the navigation or page title. */
  title: string;
  /** Where "Back to the dashboard" leads; left out on the dashboard itself. */
  dashboardHref?: string | undefined;
}

/** An area whose screens are not built yet. It says so plainly and shows no invented data. */
export function ComingPage({ title, dashboardHref }: ComingPageProps) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <div className="notice notice--info" role="status">
        <p>
          <strong>{title}</strong> arrives in a later release of Locus.
        </p>
        <p>This page does not show or change any casework data yet.</p>
      </div>
      {dashboardHref ? (
        <p>
          <Link href={dashboardHref}>Back to the dashboard</Link>
        </p>
      ) : null}
    </section>
  );
}
