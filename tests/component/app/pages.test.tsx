import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { VIEWS } from '../../../src/app/route-view';
import { routes } from '../../../src/app/routes';
import { BERGEN, OSLO, adminAll, readOnly, renderShell } from './shell-fixtures';

describe('not found, no access and forbidden pages', () => {
  it('an unknown path inside an organization shows Not found in the layout', () => {
    renderShell(`/${OSLO}/no-such-area`, { me: adminAll });
    expect(screen.getByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(document.title).toBe('Not found · Locus');
  });

  it('an unknown path below a known one shows Not found', () => {
    renderShell(`/${OSLO}/cases/x/y/z/w`, { me: adminAll });
    expect(screen.getByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
  });

  it('a first segment that is neither a GUID nor all is Not found, not an organization', () => {
    renderShell('/profiles', { me: adminAll });
    expect(screen.getByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', `/${OSLO}`);
  });

  it('an organization the user may not reach gets a clear no-access page with a way out', () => {
    renderShell(`/${BERGEN}/cases`, { me: readOnly });
    expect(screen.getByRole('heading', { level: 1, name: 'You do not have access to this organization' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Oslo Laboratory' })).toHaveAttribute('href', `/${OSLO}/cases`);
    expect(screen.queryByRole('link', { name: 'Cases' })).not.toBeInTheDocument();
  });

  it('all is out of reach for organization scope', () => {
    renderShell('/all', { me: readOnly });
    expect(screen.getByRole('heading', { level: 1, name: 'You do not have access to this organization' })).toBeInTheDocument();
  });

  it('a route the role does not allow says so instead of showing the page', () => {
    renderShell(`/${OSLO}/users`, { me: readOnly });
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have permission to open this page.');
  });

  it('the hit Review tab sends a user without Hits Publish to the All tab', () => {
    const shell = renderShell(`/${OSLO}/hits`, { me: readOnly });
    expect(shell.current()).toBe(`/${OSLO}/hits/all`);
  });

  it('every route of the spec has its screen: only the sign-in pages live outside the organization layout', () => {
    const without = Object.keys(routes).filter((name) => !(name in VIEWS));
    expect(without.sort()).toEqual(['Authentication', 'AuthenticationCallback', 'AuthenticationLoggedOut', 'AuthenticationSilentRenew', 'Root']);
  });
});
