import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { Notification } from '../../../machines/notifications.machine';
import { Toaster } from '../../../src/ui/toaster';
import { NotificationsProvider, useNotify } from '../../../src/ui/notifications/notifications-provider';
import type { NotificationRequest } from '../../../machines/notifications.machine';

const n = (over: Partial<Notification>): Notification => ({ id: 'n1', type: 'info', message: 'Saved', position: 'bottom', timeout: 5000, ...over });

describe('Toaster', () => {
  it('shows each notification with its type for screen readers', () => {
    render(<Toaster notifications={[n({ type: 'negative', message: 'Your request failed. Please try again later.' })]} onDismiss={vi.fn()} />);
    expect(screen.getByText('Your request failed. Please try again later.')).toBeInTheDocument();
    expect(screen.getByText('Error:')).toHaveClass('visually-hidden');
  });

  it('places notifications in a viewport per position', () => {
    render(<Toaster notifications={[n({ id: 'a', position: 'top-left' }), n({ id: 'b', position: 'bottom' })]} onDismiss={vi.fn()} />);
    expect(document.querySelector('.toast-viewport--top-left')).not.toBeNull();
    expect(document.querySelector('.toast-viewport--bottom')).not.toBeNull();
    expect(document.querySelector('.toast-viewport--center')).toBeNull();
  });

  it('the close button asks to dismiss that notification', () => {
    const onDismiss = vi.fn();
    render(<Toaster notifications={[n({ id: 'x' })]} onDismiss={onDismiss} />);
    // fireEvent, not userEvent: Radix's swipe handling needs pointer capture, which jsdom lacks.
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(onDismiss).toHaveBeenCalledWith('x');
  });
});

describe('NotificationsProvider', () => {
  afterEach(() => vi.useRealTimers());

  function Trigger({ request }: { request: NotificationRequest }) {
    const notify = useNotify();
    return (
      <button type="button" onClick={() => notify(request)}>
        notify
      </button>
    );
  }

  it('shows a notification and removes it timeout + 1000 ms later', () => {
    vi.useFakeTimers();
    render(
      <NotificationsProvider>
        <Trigger request={{ type: 'positive', message: 'Profile approved', timeout: 2000 }} />
      </NotificationsProvider>,
    );
    act(() => screen.getByRole('button', { name: 'notify' }).click());
    expect(screen.getByText('Profile approved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByText('Profile approved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Profile approved')).not.toBeInTheDocument();
  });

  it('refuses a negative timeout: nothing is shown and the reason is logged', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <NotificationsProvider>
        <Trigger request={{ message: 'Never shown', timeout: -1 }} />
      </NotificationsProvider>,
    );
    act(() => screen.getByRole('button', { name: 'notify' }).click());
    expect(screen.queryByText('Never shown')).not.toBeInTheDocument();
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/non-negative number of milliseconds/));
    error.mockRestore();
  });
});
