/**
 * Issue 16 in the hit view: a family's hit shows per marker L(H1), L(H2), the LR and the verdict, the mutation models
 * and the markers needing a mutation, from the real server's recomputation.
 */
import { screen, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HitView } from '../../../core/schemas/hits';
import { hits } from '../../../server/db/schema';
import { familyWorld, type FamilyWorld } from '../cases/family-fixtures';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let world: FamilyWorld;
let view: HitView;
beforeAll(async () => {
  world = await familyWorld({ remains: 2, mutant: true });
  const family = await world.addFamily({ threshold: 1 });
  await world.activate(family);
  const found = await world.t.database.db.select().from(hits).where(eq(hits.familyId, family.id));
  const views = await Promise.all(
    found.map((h) => world.t.app.inject({ method: 'GET', url: `/api/hits/${h.id}`, headers: { authorization: `Bearer ${world.tokens.analyst}` } }).then((r) => r.json() as HitView)),
  );
  view = views.find((v) => v.hit.profiles[0]!.sampleName === 'REMAINS-MUTANT')!;
}, 120_000);
afterAll(() => world.t.close());

describe('a family’s hit', () => {
  it('shows per marker L(H1), L(H2), LR and verdict, the mutation model and the marker needing a mutation', async () => {
    expect(view.markers.find((m) => m.marker === 'D3S1358')?.pedigree?.verdict).toBe('needs a mutation');
    const token = world.tokens.analyst;
    renderScreen(`/${world.orgId}/hits/${view.hit.id}`, { t: world.t, token, me: await meOf(world.t, token) });
    const table = await screen.findByRole('table', { name: /^Markers over FBI 2015 Caucasian/ });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Marker', 'Missing person: REMAINS-MUTANT', 'Mother: MOTHER', 'Full sister: SISTER', 'L(H1)', 'L(H2)', 'LR', 'Verdict']);
    const row = (marker: string) => within(table).getByRole('rowheader', { name: marker }).closest('tr') as HTMLElement;
    expect(within(row('D3S1358')).getByText('needs a mutation')).toBeInTheDocument();
    expect(within(row('FGA')).getByText('consistent')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Markers needing a mutation' })).toHaveTextContent('Markers needing a mutation: D3S1358');
    const models = screen.getByRole('region', { name: 'Mutation models' });
    expect(models).toHaveTextContent(`Every marker: ${view.markers[0]!.pedigree!.mutation}`);
    // No formula table's pattern or formula for a pedigree hit.
    expect(within(table).queryByRole('columnheader', { name: 'Pattern' })).not.toBeInTheDocument();
  });
});
