import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ListQueryInput } from '../../../core/schemas/list';
import { countText, DataTable, rowHeightFor } from '../../../src/ui/data-table/data-table';

type Row = { id: string; name: string };
const rows: Row[] = Array.from({ length: 120 }, (_, i) => ({ id: `id-${i}`, name: `Lab ${String(i).padStart(3, '0')}` }));

function fakeList(all: Row[]) {
  return vi.fn(async (q: ListQueryInput) => {
    const matching = all.filter((r) => !q.search || r.name.toLowerCase().includes(q.search.toLowerCase()));
    const page = q.page ?? 0;
    const size = q.pageSize ?? 50;
    return { items: matching.slice(page * size, page * size + size), count: matching.length };
  });
}

describe('DataTable', () => {
  it('shows the first page the server returns and the total count', async () => {
    const load = fakeList(rows);
    render(<DataTable<Row> label="Laboratories" columns={[{ field: 'name', header: 'Name', sortable: true }]} load={load} />);
    expect(await screen.findByText('Lab 000')).toBeInTheDocument();
    expect(screen.getByText('120 records')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith({ page: 0, pageSize: 50 });
  });

  it('asks the server again with the search text', async () => {
    const load = fakeList(rows);
    render(<DataTable<Row> label="Laboratories" columns={[{ field: 'name', header: 'Name' }]} load={load} />);
    await screen.findByText('Lab 000');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search Laboratories' }), '119');
    await waitFor(() => expect(screen.getByText('1 record')).toBeInTheDocument());
    expect(screen.getByText('Lab 119')).toBeInTheDocument();
    expect(load).toHaveBeenLastCalledWith({ page: 0, pageSize: 50, search: '119' });
  });

  it('opens a row on click', async () => {
    const onNavigate = vi.fn();
    render(
      <DataTable<Row> label="Laboratories" columns={[{ field: 'name', header: 'Name' }]} load={fakeList(rows)} rowHref={(r) => `/x/${r.id}`} onNavigate={onNavigate} />,
    );
    await userEvent.click(await screen.findByText('Lab 002'));
    expect(onNavigate).toHaveBeenCalledWith('/x/id-2');
  });

  it('draws only the rows in view of a list of 100,000 (a grown grid drew them all and froze the browser)', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => ({ id: `id-${i}`, name: `Offender ${i}` }));
    const { container } = render(<DataTable<Row> label="Profiles" columns={[{ field: 'name', header: 'Name' }]} load={fakeList(many)} />);
    expect(await screen.findByText('Offender 0')).toBeInTheDocument();
    expect(screen.getByText('100000 records')).toBeInTheDocument();
    expect(container.querySelectorAll('.ag-grid-scrolling-container [role="row"]').length).toBeLessThan(60);
    expect(container.querySelector('.data-table__grid--scrolls')).not.toBeNull();
  });

  it('says "about" when the server estimates the count of a long list', async () => {
    const load = vi.fn(async (q: ListQueryInput) => ({
      items: Array.from({ length: 50 }, (_, i) => ({ id: `id-${(q.page ?? 0) * 50 + i}`, name: `Offender ${(q.page ?? 0) * 50 + i}` })),
      count: 1_000_881,
      estimated: true as const,
    }));
    render(<DataTable<Row> label="Profiles" columns={[{ field: 'name', header: 'Name' }]} load={load} />);
    expect(await screen.findByText('Offender 0')).toBeInTheDocument();
    expect(screen.getByText('about 1,000,881 records')).toBeInTheDocument();
  });

  it('grows every row to hold the tallest cell of several lines, each line kept whole (issue 18: a hit’s second profile was cut off)', async () => {
    type Hit = { id: string; profiles: string[] };
    const hits: Hit[] = [
      { id: 'h1', profiles: ['STAIN-1 (C-1)', 'OFFENDER-7 (C-2)'] },
      { id: 'h2', profiles: ['CHILD (C-3)', 'MOTHER (C-3)', 'FATHER (C-3)'] },
    ];
    const { container } = render(
      <DataTable<Hit>
        label="Hits"
        columns={[{ field: 'profiles', header: 'Profiles', text: (h) => h.profiles.join('\n'), lines: (h) => h.profiles.length }]}
        load={async () => ({ items: hits, count: hits.length })}
      />,
    );
    await waitFor(() => {
      const rows = [...container.querySelectorAll<HTMLElement>('.ag-grid-scrolling-container [role="row"]')];
      expect(rows.map((r) => r.style.height)).toEqual([`${rowHeightFor(3)}px`, `${rowHeightFor(3)}px`]);
    });
    const cells = [...container.querySelectorAll<HTMLElement>('[role="gridcell"][col-id="profiles"]')];
    expect(cells.map((c) => c.textContent)).toEqual(['STAIN-1 (C-1)\nOFFENDER-7 (C-2)', 'CHILD (C-3)\nMOTHER (C-3)\nFATHER (C-3)']);
    // The class that keeps each line whole and the lines apart (theme.css).
    for (const cell of cells) expect(cell).toHaveClass('data-table__cell--lines');
    expect(rowHeightFor(1)).toBe(42);
    expect(rowHeightFor(3)).toBeGreaterThan(rowHeightFor(2));
  });

  it('words counts', () => {
    expect(countText(null, false)).toBe('');
    expect(countText(1, false)).toBe('1 record');
    expect(countText(120, false)).toBe('120 records');
    expect(countText(1_000_000, true)).toBe('about 1,000,000 records');
  });
});
