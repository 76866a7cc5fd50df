import { Link } from 'wouter';
import './link-tabs.css';

export interface LinkTab {
  label: string;
  href: string;
  current: boolean;
}

/**
 * Tabs that are routes (spec 2.3, 2.8: each tab of a tab page has its own address): links in a
 * navigation landmark, the current one marked with aria-current, rather than an ARIA tablist.
 */
export function LinkTabs({ label, tabs, small = false }: { label: string; tabs: readonly LinkTab[]; small?: boolean }) {
  return (
    <nav className={`link-tabs${small ? ' link-tabs--small' : ''}`} aria-label={label}>
      <ul className="link-tabs__list">
        {tabs.map((tab) => (
          <li key={tab.href}>
            <Link href={tab.href} className="link-tabs__link" aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
