import { Link } from 'wouter';

export interface TabLink {
  label: string;
  href: string;
  current: boolean;
}

/**
 * The tabs of a tab page (spec 2.3, 2.8). Each tab is a route, so the tabs are links in a
 * navigation landmark and the current one is marked for screen readers, not an ARIA tablist.
 */
export function TabNav({ label, tabs }: { label: string; tabs: readonly TabLink[] }) {
  return (
    <nav className="tab-nav" aria-label={label}>
      <ul className="tab-nav__list">
        {tabs.map((tab) => (
          <li key={tab.href}>
            <Link href={tab.href} className="tab-nav__link" aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
