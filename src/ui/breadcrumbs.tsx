import type { ReactNode } from 'react';
import { Link } from 'wouter';

export interface BreadcrumbItem {
  key: string;
  href: string;
  label: ReactNode;
}

/** A breadcrumb trail; the last item is the current page and is not a link. */
export function Breadcrumbs({ items }: { items: readonly BreadcrumbItem[] }) {
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {items.map((item, i) =>
          i === items.length - 1 ? (
            <li key={item.key} aria-current="page">
              {item.label}
            </li>
          ) : (
            <li key={item.key}>
              <Link href={item.href}>{item.label}</Link>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
