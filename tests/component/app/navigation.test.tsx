import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Me } from '../../../core/schemas/me';
import { OSLO, adminAll, readOnly, renderShell } from './shell-fixtures';

const navLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);

describe('side navigation shows only what can() allows', () => {
  it('an administrator with scope All sees casework and every administration area', () => {
    renderShell(`/${OSLO}`, { me: adminAll });
    expect(navLinks()).toEqual([
      ['Dashboard', `/${OSLO}`],
      ['Cases', `/${OSLO}/cases`],
      ['Profiles', `/${OSLO}/profiles`],
      ['Hits', `/${OSLO}/hits`],
      // Issue 32: foreign queries' release requests, for those who decide hits (Hits Publish).
      ['Foreign queries', `/${OSLO}/foreign-queries`],
      // Issue 32: candidate matches the upper instance sent down, for those who read hits.
      ['Candidate matches', `/${OSLO}/candidate-matches`],
      ['Analyses', `/${OSLO}/analyses`],
      ['Keyboard search', `/${OSLO}/keyboard-search`],
      ['Users', `/${OSLO}/users`],
      ['Roles', `/${OSLO}/access-groups`],
      ['Organizations', `/${OSLO}/organizations`],
      ['Case types', `/${OSLO}/case-types`],
      ['Sample sources', `/${OSLO}/sample-sources`],
      ['Laboratories', `/${OSLO}/laboratories`],
      ['Markers', `/${OSLO}/markers`],
      ['Y-STR chemistries', `/${OSLO}/ystr-chemistries`],
      ['Autosomal chemistries', `/${OSLO}/autosomal-chemistries`],
      ['Populations', `/${OSLO}/populations`],
      ['Analysis groups', `/${OSLO}/analysis-groups`],
      ['Search rules', `/${OSLO}/search-rules`],
      ['Upload eligibility', `/${OSLO}/upload-eligibility-rules`],
      ['Email templates', `/${OSLO}/email-templates`],
      ['Citations', `/${OSLO}/citations`],
      ['Network', `/${OSLO}/network`],
      ['Network delivery', `/${OSLO}/network/delivery`],
      ['Service clients', `/${OSLO}/service-clients`],
      ['Audit trail', `/${OSLO}/audit`],
      ['About us', `/${OSLO}/about`],
      ['Contact', `/${OSLO}/contact`],
    ]);
  });

  it('a Read-only group sees only what it may read; Hits leads to the All tab it may open', () => {
    renderShell(`/${OSLO}`, { me: readOnly });
    expect(navLinks()).toEqual([
      ['Dashboard', `/${OSLO}`],
      ['Cases', `/${OSLO}/cases`],
      ['Profiles', `/${OSLO}/profiles`],
      ['Hits', `/${OSLO}/hits/all`],
      ['Candidate matches', `/${OSLO}/candidate-matches`],
      ['Keyboard search', `/${OSLO}/keyboard-search`],
      ['Markers', `/${OSLO}/markers`],
      ['Upload eligibility', `/${OSLO}/upload-eligibility-rules`],
      ['About us', `/${OSLO}/about`],
      ['Contact', `/${OSLO}/contact`],
    ]);
    expect(screen.queryByRole('heading', { name: 'Administration' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('an administrator with organization scope loses the reference data reserved to scope All (spec 6)', () => {
    const orgAdmin: Me = { ...adminAll, scope: 'Organization', organizations: [{ id: OSLO, name: 'Oslo Laboratory' }] };
    renderShell(`/${OSLO}`, { me: orgAdmin });
    const labels = navLinks().map(([label]) => label);
    for (const hidden of ['Roles', 'Organizations', 'Case types', 'Sample sources', 'Markers', 'Y-STR chemistries', 'Citations', 'Network', 'Network delivery', 'Service clients']) {
      expect(labels).not.toContain(hidden);
    }
    expect(labels).toEqual(expect.arrayContaining(['Users', 'Populations', 'Laboratories', 'Hits']));
  });

  it('marks the current area, with Dashboard current only on the dashboard itself', () => {
    renderShell(`/${OSLO}/hits/all`, { me: readOnly });
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: 'Hits' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('the header shows the product, the role from the permissions claim, the user and Sign out', async () => {
    const { session } = renderShell(`/${OSLO}`, { me: readOnly });
    const header = within(screen.getByRole('banner'));
    expect(header.getByRole('link', { name: 'Locus' })).toHaveAttribute('href', `/${OSLO}`);
    expect(header.getByText('Read-only')).toBeInTheDocument();
    expect(header.getByText('Rita Reader')).toBeInTheDocument();
    // Every signed-in user reaches their own access tokens (issue 18), whatever their role.
    expect(header.getByRole('link', { name: 'Access tokens' })).toHaveAttribute('href', `/${OSLO}/access-tokens`);
    header.getByRole('button', { name: 'Sign out' }).click();
    expect(session.signOut).toHaveBeenCalledTimes(1);
  });

  it('the menu button opens and closes the navigation drawer on narrow screens', async () => {
    renderShell(`/${OSLO}`, { me: readOnly });
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('aria-controls', screen.getByRole('navigation', { name: 'Main' }).id);
    const { default: userEvent } = await import('@testing-library/user-event');
    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
  });
});
