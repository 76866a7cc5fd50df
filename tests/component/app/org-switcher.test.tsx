import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BERGEN, OSLO, RECORD, TROMSO, adminAll, readOnly, renderShell } from './shell-fixtures';

const options = () =>
  within(screen.getByRole('combobox', { name: 'Organization' }))
    .getAllByRole('option')
    .map((o) => [(o as HTMLOptionElement).value, o.textContent]);

describe('organization switcher', () => {
  it('offers All organizations first, then the user’s organizations, for scope All', () => {
    renderShell(`/${OSLO}`, { me: adminAll });
    expect(options()).toEqual([
      ['all', 'All organizations'],
      [BERGEN, 'Bergen Laboratory'],
      [OSLO, 'Oslo Laboratory'],
    ]);
    expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveValue(OSLO);
  });

  it('does not offer all to a user with organization scope', () => {
    renderShell(`/${OSLO}`, { me: readOnly });
    expect(options()).toEqual([[OSLO, 'Oslo Laboratory']]);
  });

  it('keeps the sub-path when switching', async () => {
    const shell = renderShell(`/${OSLO}/cases/${RECORD}/items`, { me: adminAll });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Organization' }), 'all');
    expect(shell.current()).toBe(`/all/cases/${RECORD}/items`);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Organization' }), BERGEN);
    expect(shell.current()).toBe(`/${BERGEN}/cases/${RECORD}/items`);
  });

  it('asks to choose when the address names an organization outside the list', () => {
    renderShell(`/${TROMSO}`, { me: adminAll });
    expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Choose an organization…' })).toBeDisabled();
  });
});
