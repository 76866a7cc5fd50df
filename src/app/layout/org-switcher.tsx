import { useId } from 'react';
import { useLocation } from 'wouter';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import type { Me } from '../../../core/schemas/me';

export const ALL_ORGANIZATIONS_LABEL = 'All organizations';

interface OrgSwitcherProps {
  me: Me;
  orgId: string;
  /** The path after /{orgId}; switching keeps it, so the user stays on the same kind of page. */
  subPath: string;
}

/** The organizations the user can switch between: their own, plus `all` for scope All (spec 2.1). */
export function organizationOptions(me: Me): { value: string; label: string }[] {
  const own = [...me.organizations].sort((a, b) => a.name.localeCompare(b.name)).map((o) => ({ value: o.id, label: o.name }));
  return me.scope === 'All' ? [{ value: ALL_ORGANIZATIONS, label: ALL_ORGANIZATIONS_LABEL }, ...own] : own;
}

export function OrgSwitcher({ me, orgId, subPath }: OrgSwitcherProps) {
  const [, navigate] = useLocation();
  const id = useId();
  const options = organizationOptions(me);
  const known = options.some((o) => o.value === orgId);
  return (
    <div className="org-switcher">
      <label htmlFor={id} className="org-switcher__label">
        Organization
      </label>
      <select
        id={id}
        value={known ? orgId : ''}
        onChange={(e) => {
          if (e.target.value) navigate(`/${encodeURIComponent(e.target.value)}${subPath}`);
        }}
      >
        {known ? null : (
          <option value="" disabled>
            Choose an organization…
          </option>
        )}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
