import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OSLO, readOnly, renderShell } from './shell-fixtures';

/** The header’s user area behind the Account button (below 1024 px; from 1024 px CSS shows it in the header). */
const accountButton = () => within(screen.getByRole('banner')).getByRole('button', { name: 'Account' });
const accountPanel = () => screen.getByRole('group', { name: 'Account' });

describe('the header’s account menu (issue 18: at 600 px Change password and Sign out were off the screen)', () => {
  it('holds the user, Access tokens, Change password and Sign out, and opens and closes from its button', async () => {
    const { session } = renderShell(`/${OSLO}`, { me: readOnly, accountActions: <button type="button">Change password</button> });
    const button = accountButton();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', accountPanel().id);
    const panel = within(accountPanel());
    expect(panel.getByText('Rita Reader')).toBeInTheDocument();
    expect(panel.getByRole('link', { name: 'Access tokens' })).toHaveAttribute('href', `/${OSLO}/access-tokens`);
    expect(panel.getByRole('button', { name: 'Change password' })).toBeInTheDocument();

    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(accountPanel().closest('[data-open]')).toHaveAttribute('data-open', 'true');
    await userEvent.click(panel.getByRole('button', { name: 'Sign out' }));
    expect(session.signOut).toHaveBeenCalledTimes(1);

    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on Escape, giving the focus back to its button, and on a click outside it', async () => {
    renderShell(`/${OSLO}`, { me: readOnly });
    const button = accountButton();
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();

    await userEvent.click(button);
    await userEvent.click(screen.getByRole('main'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('stays open under a dialog one of its items opened, so closing the dialog with Escape returns to the menu', async () => {
    renderShell(`/${OSLO}`, { me: readOnly, accountActions: <div role="dialog" aria-label="Change password" /> });
    const button = accountButton();
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('dialog', { name: 'Change password' }));
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes when the page changes', async () => {
    const { navigate } = renderShell(`/${OSLO}`, { me: readOnly });
    await userEvent.click(accountButton());
    act(() => navigate(`/${OSLO}/access-tokens`));
    expect(accountButton()).toHaveAttribute('aria-expanded', 'false');
  });
});
