import { Link } from 'wouter';
import type { Me } from '../../../core/schemas/me';
import { organizationOptions } from '../layout/org-switcher';

/** The address names an organization this user may not act in (spec 2.1, 6). */
export function NoAccessPage({ me, subPath }: { me: Me; subPath: string }) {
  const options = organizationOptions(me);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">You do not have access to this organization</h1>
      <p>Your account is not a member of the organization in this address, so none of its records can be shown.</p>
      {options.length > 0 ? (
        <>
          <p>You can open the same page in one of your organizations:</p>
          <ul>
            {options.map((o) => (
              <li key={o.value}>
                <Link href={`/${encodeURIComponent(o.value)}${subPath}`}>{o.label}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>You are not a member of any organization yet. Ask your administrator to add you to one.</p>
      )}
    </section>
  );
}
