import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Me } from '../../../core/schemas/me';
import { fullName } from '../principal';
import { routes } from '../routes';
import { AccountMenu } from './account-menu';
import { OrgSwitcher } from './org-switcher';

interface AppHeaderProps {
  me: Me;
  orgId: string;
  subPath: string;
  /** Licence not yet accepted: only the product name, the user and Sign out. */
  restricted: boolean;
  onSignOut(): void;
  accountActions?: ReactNode;
  navOpen: boolean;
  onToggleNav(): void;
  navId: string;
}

export function AppHeader({ me, orgId, subPath, restricted, onSignOut, accountActions, navOpen, onToggleNav, navId }: AppHeaderProps) {
  return (
    <header className="app-header">
      {restricted ? null : (
        <button type="button" className="app-header__menu button button--ghost" aria-expanded={navOpen} aria-controls={navId} onClick={onToggleNav}>
          Menu
        </button>
      )}
      {restricted ? (
        <span className="app-header__brand">Locus</span>
      ) : (
        <Link href={`/${encodeURIComponent(orgId)}`} className="app-header__brand">
          Locus
        </Link>
      )}
      {restricted ? null : <OrgSwitcher me={me} orgId={orgId} subPath={subPath} />}
      <AccountMenu label={fullName(me)} closeKey={`${orgId}${subPath}`}>
        {me.roleName ? (
          <span className="app-header__role" title="Your role">
            <span className="visually-hidden">Role: </span>
            {me.roleName}
          </span>
        ) : null}
        <span className="app-header__name">
          <span className="visually-hidden">Signed in as </span>
          {fullName(me)}
        </span>
        {restricted ? null : (
          // Every signed-in user's own tokens for scripts and a LIMS (issue 18), beside Change password.
          <Link href={routes.AccessTokens.href({ orgId })} className="button button--secondary">
            Access tokens
          </Link>
        )}
        {restricted ? null : accountActions}
        <button type="button" className="button button--secondary" onClick={onSignOut}>
          Sign out
        </button>
      </AccountMenu>
    </header>
  );
}
