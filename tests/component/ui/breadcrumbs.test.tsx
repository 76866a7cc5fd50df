import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BreadcrumbBar, type BreadcrumbNameLookup } from '../../../src/app/layout/breadcrumb-bar';
import { AsyncLabel } from '../../../src/ui/async-label';
import { Breadcrumbs } from '../../../src/ui/breadcrumbs';

describe('Breadcrumbs', () => {
  it('links every crumb but the last, which is the current page', () => {
    render(
      <Router hook={memoryLocation({ path: '/' }).hook}>
        <Breadcrumbs
          items={[
            { key: 'a', href: '/a', label: 'Cases' },
            { key: 'b', href: '/a/b', label: 'Case 7' },
          ]}
        />
      </Router>,
    );
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cases' })).toHaveAttribute('href', '/a');
    expect(screen.queryByRole('link', { name: 'Case 7' })).not.toBeInTheDocument();
    expect(screen.getByText('Case 7')).toHaveAttribute('aria-current', 'page');
  });
});

describe('AsyncLabel', () => {
  it('shows the placeholder, then the looked-up name', async () => {
    render(<AsyncLabel placeholder="id-1" lookupKey="1" load={() => Promise.resolve('Oslo')} />);
    expect(screen.getByText('id-1')).toBeInTheDocument();
    expect(await screen.findByText('Oslo')).toBeInTheDocument();
  });

  it('shows n/a when the lookup fails, even synchronously', async () => {
    render(
      <>
        <span>
          <AsyncLabel placeholder="id-1" lookupKey="1" load={() => Promise.reject(new Error('404'))} />
        </span>
        <span>
          <AsyncLabel
            placeholder="id-2"
            lookupKey="2"
            load={() => {
              throw new Error('boom');
            }}
          />
        </span>
      </>,
    );
    await waitFor(() => expect(screen.getAllByText('n/a')).toHaveLength(2));
  });

  it('ignores a late answer for a previous record', async () => {
    let resolveFirst!: (v: string) => void;
    const first = new Promise<string>((r) => (resolveFirst = r));
    const { rerender } = render(<AsyncLabel placeholder="id-1" lookupKey="1" load={() => first} />);
    rerender(<AsyncLabel placeholder="id-2" lookupKey="2" load={() => Promise.resolve('Second')} />);
    expect(await screen.findByText('Second')).toBeInTheDocument();
    resolveFirst('First');
    await first;
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });
});

describe('BreadcrumbBar', () => {
  const ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
  const trail = [{ key: 'CaseInvolvedParties', routeName: 'CaseInvolvedParties' as const, href: `/x/cases/${ID}`, kind: 'record' as const, id: ID, params: { caseId: ID } }];
  const inRouter = (lookupName: BreadcrumbNameLookup) => (
    <Router hook={memoryLocation({ path: '/' }).hook}>
      <BreadcrumbBar trail={trail} lookupName={lookupName} />
    </Router>
  );

  it('shows a neutral placeholder, never the raw id, until the record’s name is looked up (issue 30)', async () => {
    let answer!: (name: string) => void;
    render(inRouter(() => new Promise<string>((resolve) => (answer = resolve))));
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs).toHaveTextContent('…');
    expect(crumbs).not.toHaveTextContent(ID);
    answer('2026-0042');
    await waitFor(() => expect(crumbs).toHaveTextContent('2026-0042'));
  });

  it('shows the id where the route has no lookup', async () => {
    render(inRouter(() => undefined));
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(ID));
  });
});
