import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LICENCE_TITLE } from '../../../src/app/licence/licence-text';
import { OSLO, readOnly, renderShell } from './shell-fixtures';

const notAccepted = { ...readOnly, licensesAccepted: false };

describe('licence gate', () => {
  it('shows only the terms, with no navigation, switcher or breadcrumbs, whatever the address', () => {
    renderShell(`/${OSLO}/cases`, { me: notAccepted });
    expect(screen.getByRole('heading', { level: 1, name: LICENCE_TITLE })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Terms of use text' })).toHaveTextContent('forensic DNA casework');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Organization' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Cases' })).not.toBeInTheDocument();
    // Signing out stays possible.
    expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('also blocks unknown paths and other organizations', () => {
    renderShell('/not-an-org/whatever', { me: notAccepted });
    expect(screen.getByRole('heading', { level: 1, name: LICENCE_TITLE })).toBeInTheDocument();
  });

  it('I accept records the acceptance; once the session says so, the page appears', async () => {
    const shell = renderShell(`/${OSLO}/cases`, { me: notAccepted });
    await userEvent.click(screen.getByRole('button', { name: 'I accept' }));
    expect(shell.session.acceptLicences).toHaveBeenCalledTimes(1);
    shell.rerenderWith({ me: readOnly });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cases' })).toBeInTheDocument();
  });

  it('disables the button while recording, and offers it again when recording fails', async () => {
    let fail!: (e: Error) => void;
    const acceptLicences = vi.fn(() => new Promise<void>((_, reject) => (fail = reject)));
    renderShell(`/${OSLO}`, { me: notAccepted, acceptLicences });
    await userEvent.click(screen.getByRole('button', { name: 'I accept' }));
    expect(screen.getByRole('button', { name: 'Recording…' })).toBeDisabled();
    fail(new Error('500'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'I accept' })).toBeEnabled());
    expect(screen.getByRole('alert')).toHaveTextContent('Your acceptance could not be recorded. Please try again.');
    expect(screen.getByRole('heading', { level: 1, name: LICENCE_TITLE })).toBeInTheDocument();
  });
});
