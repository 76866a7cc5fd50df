import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { RouteName } from '../routes';
import type { NavSection } from './nav-items';

interface SideNavProps {
  id: string;
  sections: readonly NavSection[];
  /** Route names of the current page's breadcrumb trail, root first. */
  trail: readonly RouteName[];
  /** Shown beside an area's entry: how many wait for review there (issue 18). */
  badges?: Partial<Record<RouteName, ReactNode>>;
}

/** Dashboard is the root of every trail, so it is current only on itself. */
const isCurrent = (area: RouteName, trail: readonly RouteName[]) =>
  area === 'Dashboard' ? trail.length === 1 && trail[0] === 'Dashboard' : trail.includes(area);

export function SideNav({ id, sections, trail, badges = {} }: SideNavProps) {
  return (
    <nav id={id} aria-label="Main" className="side-nav">
      {sections.map((section) => (
        <section key={section.label} className="side-nav__section" aria-labelledby={`${id}-${section.label}`}>
          <h2 id={`${id}-${section.label}`} className="side-nav__heading">
            {section.label}
          </h2>
          <ul>
            {section.links.map((link) => (
              <li key={link.area} className={badges[link.area] ? 'side-nav__item--counted' : undefined}>
                <Link href={link.href} className="side-nav__link" aria-current={isCurrent(link.area, trail) ? 'page' : undefined}>
                  {link.label}
                </Link>
                {badges[link.area]}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
