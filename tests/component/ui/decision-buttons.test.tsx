import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/middleware/api-error';
import { DecisionButtons, type TwoWayDecision } from '../../../src/ui/decision-buttons';

// The states the candidate matches and foreign queries screens' own tests do not reach: a decision the server
// refuses, Cancel, a reason of blanks, and a dialog reopened after a reason was typed.

interface Item {
  name: string;
}

function renderList(over: { agree?: (item: Item) => Promise<unknown>; decline?: (item: Item, reason: string) => Promise<unknown> } = {}) {
  const agree = vi.fn(over.agree ?? (async () => undefined));
  const decline = vi.fn(over.decline ?? (async () => undefined));
  const onDecided = vi.fn();
  const decision: TwoWayDecision<Item> = {
    agree: { label: 'Release', title: 'Release the data?', says: (item) => `Send the data of ${item.name}?`, run: agree },
    decline: { label: 'Refuse', title: 'Refuse to release?', reasonLabel: 'Reason (the sender is told)', run: decline },
  };
  render(
    <DecisionButtons decision={decision} onDecided={onDecided}>
      {(buttonsOf) => (
        <ul>
          {['A-1', 'A-2'].map((name) => (
            <li key={name} aria-label={name}>
              {buttonsOf({ name })}
            </li>
          ))}
        </ul>
      )}
    </DecisionButtons>,
  );
  return { agree, decline, onDecided };
}

const buttonOf = (item: string, name: string) => within(screen.getByRole('listitem', { name: item })).getByRole('button', { name });

describe('DecisionButtons', () => {
  it('shows the server’s message above the list when it refuses a decision, and does not read the list again', async () => {
    const refused = new ApiError(409, { error: 'This request was already released' }, 'POST', '/api/release-requests/{id}/release');
    const { agree, onDecided } = renderList({ agree: () => Promise.reject(refused) });
    await userEvent.click(buttonOf('A-1', 'Release'));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Release the data?' }));
    expect(dialog.getByText('Send the data of A-1?')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Release' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This request was already released');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(agree).toHaveBeenCalledWith({ name: 'A-1' });
    expect(onDecided).not.toHaveBeenCalled();
  });

  it('decides nothing on Cancel; a reason of blanks is no reason; reopened, the dialog has no reason typed and the next decision is the one run', async () => {
    const { agree, decline, onDecided } = renderList();
    await userEvent.click(buttonOf('A-1', 'Refuse'));
    let dialog = within(await screen.findByRole('alertdialog', { name: 'Refuse to release?' }));
    await userEvent.type(dialog.getByLabelText('Reason (the sender is told)'), '   ');
    expect(dialog.getByRole('button', { name: 'Refuse' })).toBeDisabled();
    await userEvent.type(dialog.getByLabelText('Reason (the sender is told)'), 'No legal basis');
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await userEvent.click(buttonOf('A-2', 'Refuse'));
    dialog = within(await screen.findByRole('alertdialog', { name: 'Refuse to release?' }));
    expect(dialog.getByLabelText('Reason (the sender is told)')).toHaveValue('');
    expect(dialog.getByRole('button', { name: 'Refuse' })).toBeDisabled();
    await userEvent.type(dialog.getByLabelText('Reason (the sender is told)'), 'Outside the treaty');
    await userEvent.click(dialog.getByRole('button', { name: 'Refuse' }));
    await waitFor(() => expect(onDecided).toHaveBeenCalledTimes(1));
    expect(decline.mock.calls).toEqual([[{ name: 'A-2' }, 'Outside the treaty']]);
    expect(agree).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
