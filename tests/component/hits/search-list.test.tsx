/** Issue 31 (a tester's fault): the Database searches panel of a bulk approval lists the running searches and only the latest finished ones. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SearchJob } from '../../../core/schemas/searches';
import { SearchList } from '../../../src/hits/search-progress';

const ORG = '0b8f5c1e-7a4d-4c2b-9e1f-3d6a8b2c4e5f';
const at = (second: number) => new Date(Date.UTC(2026, 10, 28, 12) + second * 1000).toISOString();

/** The search of BULK-n in state `status`; a finished one finished `second` seconds after noon. */
function job(n: number, status: SearchJob['status'], second = 0): SearchJob {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return { id, profileId: id, sampleName: `BULK-${n}`, organizationId: ORG, status, done: status === 'running' ? 2 : 4, total: 4, hits: 0, error: null, queuedAt: at(0), finishedAt: status === 'done' || status === 'failed' ? at(second) : null };
}

const samples = (list: HTMLElement) => within(list).queryAllByText(/^BULK-\d+$/).map((e) => e.textContent);

describe('the Database searches panel after a bulk approval of 200 profiles', () => {
  it('lists the running searches and the 5 latest finished ones; "193 more finished searches" lists the rest', async () => {
    // 198 finished (BULK-1 the earliest, BULK-198 the latest), listed earliest first as the server may, and 2 running.
    const jobs = [...Array.from({ length: 198 }, (_, i) => job(i + 1, i === 0 ? 'failed' : 'done', i)), job(199, 'running'), job(200, 'running')];
    render(<SearchList jobs={jobs} />);
    const panel = screen.getByRole('region', { name: 'Database searches' });
    expect(samples(panel)).toEqual(['BULK-199', 'BULK-200', 'BULK-198', 'BULK-197', 'BULK-196', 'BULK-195', 'BULK-194']);
    expect(within(panel).getByText('BULK-199').nextElementSibling).toHaveTextContent('searching, 2 of 4 steps');

    await userEvent.click(within(panel).getByRole('button', { name: '193 more finished searches' }));
    expect(samples(panel)).toHaveLength(200);
    expect(within(panel).getByText('BULK-1').nextElementSibling).toHaveTextContent('failed: unknown error');
    await userEvent.click(within(panel).getByRole('button', { name: 'Show only the latest finished searches' }));
    expect(samples(panel)).toHaveLength(7);
  });

  it('names the first 5 searches waiting and counts the others', () => {
    render(<SearchList jobs={Array.from({ length: 40 }, (_, i) => job(i + 1, 'queued'))} />);
    const panel = screen.getByRole('region', { name: 'Database searches' });
    expect(samples(panel)).toEqual(['BULK-1', 'BULK-2', 'BULK-3', 'BULK-4', 'BULK-5']);
    expect(within(panel).getByText('35 more searches waiting')).toBeInTheDocument();
    expect(within(panel).queryByRole('button')).toBeNull();
  });
});
