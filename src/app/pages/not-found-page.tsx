import { Link } from 'wouter';

/** No route of the table matches the address. */
export function NotFoundPage({ homeHref }: { homeHref: string }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Not found</h1>
      <p>There is no page at this address. Check the link, or go back to where you started.</p>
      <p>
        <Link href={homeHref}>Go to the start page</Link>
      </p>
    </section>
  );
}
