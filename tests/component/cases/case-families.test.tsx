/**
 * Issue 16 on the case page: the case's missing-person families listed under its involved parties, the form that adds
 * one, the server's refusal shown without losing what was entered, and an activation's counts.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Family } from '../../../core/schemas/families';
import { meOf, renderScreen } from '../screen-fixtures';
import { familyWorld, type FamilyWorld } from './family-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let world: FamilyWorld;
beforeAll(async () => {
  world = await familyWorld({ remains: 6 });
}, 120_000);
afterAll(() => world.t.close());

const open = async (who: 'analyst' | 'reader') => {
  const token = world.tokens[who];
  return renderScreen(`/${world.orgId}/cases/${world.caseId}`, { t: world.t, token, me: await meOf(world.t, token) });
};
const listed = () => world.t.app.inject({ method: 'GET', url: `/api/cases/${world.caseId}/families`, headers: { authorization: `Bearer ${world.tokens.analyst}` } }).then((r) => r.json() as Family[]);
const card = async (name: string) => (await screen.findByRole('heading', { name, level: 3 })).closest('article') as HTMLElement;
const fact = (inside: HTMLElement, term: string) => within(inside).getByText(term, { selector: 'dt' }).nextElementSibling;

/** Fills the add form: the shape 'Mother and full sister', a profile per relative, FBI 2015 Caucasian. */
async function fillForm(name: string, mother: string, sister: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'Add family' }));
  const form = (await screen.findByRole('heading', { name: 'Add a family' })).closest('section') as HTMLElement;
  await userEvent.type(within(form).getByLabelText(/^Name/), name);
  await userEvent.selectOptions(within(form).getByLabelText(/^Family shape/), within(form).getByRole('option', { name: /^Mother and full sister/ }));
  await userEvent.selectOptions(await within(form).findByLabelText(/^Mother/), within(form).getAllByRole('option', { name: `${mother} (approved)` })[0]!);
  await userEvent.selectOptions(within(form).getByLabelText(/^Full sister/), within(form).getAllByRole('option', { name: `${sister} (approved)` })[1]!);
  await userEvent.click(within(form).getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
  return form;
}

describe('the families of a case', () => {
  it('lists each family with its shape, relatives with their sample and status, status, hits and last search', async () => {
    const family = await world.addFamily({ name: 'Listed family' });
    await open('reader');
    const listedCard = await card('Listed family');
    expect(fact(listedCard, 'Analysis')).toHaveTextContent('Mother and full sister');
    expect(fact(listedCard, 'Status')).toHaveTextContent('Draft');
    expect(fact(listedCard, 'Hits found')).toHaveTextContent('0');
    expect(fact(listedCard, 'Last searched')).toHaveTextContent('Never');
    const relatives = within(listedCard).getByRole('list', { name: 'Relatives of Listed family' });
    expect(within(relatives).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Missing person: the remains searched', 'Mother: MOTHER (approved)', 'Full sister: SISTER (approved)']);
    // Reading only: no Add, Edit, Activate or Delete.
    expect(screen.queryByRole('button', { name: 'Add family' })).not.toBeInTheDocument();
    expect(within(listedCard).queryByRole('button')).not.toBeInTheDocument();
    await world.t.app.inject({ method: 'DELETE', url: `/api/families/${family.id}`, headers: { authorization: `Bearer ${world.tokens.analyst}` } });
  });

  it('adds a family: the form places a profile per role of the shape, the threshold defaults to the analysis’s, and sends that', async () => {
    await open('analyst');
    const form = await fillForm('Added family', 'MOTHER', 'SISTER');
    // The seeded family shapes weigh from LR 10,000 (server/genetics/seed-analyses/pedigree-analyses.ts).
    expect(within(form).getByLabelText(/^Threshold/)).toHaveValue(10000);
    expect(within(form).getByRole('img', { name: /^Pedigree of Mother and full sister/ })).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Add family' }));
    expect(await screen.findByText('Added family saved. Activate it to search the remains.')).toBeInTheDocument();
    const added = (await listed()).find((f) => f.name === 'Added family')!;
    expect(added).toMatchObject({
      analysisId: world.analysisId,
      relatives: [{ role: 'Mother', profileId: world.ids.get('MOTHER') }, { role: 'Full sister', profileId: world.ids.get('SISTER') }],
      populationIds: [world.populationId],
      threshold: 10000,
      status: 'draft',
    });
    expect(await card('Added family')).toBeInTheDocument();
  });

  it('says Required (spec 5) under a family shape or a relative’s profile left unchosen', async () => {
    await open('analyst');
    await userEvent.click(await screen.findByRole('button', { name: 'Add family' }));
    const form = (await screen.findByRole('heading', { name: 'Add a family' })).closest('section') as HTMLElement;
    await userEvent.type(within(form).getByLabelText(/^Name/), 'Unchosen family');
    await userEvent.click(within(form).getByRole('button', { name: 'Add family' }));
    const fieldOf = (label: RegExp) => within(within(form).getByLabelText(label).closest('.field') as HTMLElement);
    expect(await fieldOf(/^Family shape/).findByText('Required', { selector: '.field__error' })).toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByLabelText(/^Family shape/), within(form).getByRole('option', { name: /^Mother and full sister/ }));
    await within(form).findByLabelText(/^Mother/);
    await userEvent.click(within(form).getByRole('button', { name: 'Add family' }));
    expect(await fieldOf(/^Mother/).findByText('Required', { selector: '.field__error' })).toBeInTheDocument();
  });

  it('shows the server’s refusal at the form and keeps everything entered', async () => {
    await open('analyst');
    const form = await fillForm('Refused family', 'MOTHER', 'MOTHER');
    await userEvent.click(within(form).getByRole('button', { name: 'Add family' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('One profile cannot stand for two relatives.');
    expect(within(form).getByText('A profile placed twice')).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Name/)).toHaveValue('Refused family');
    expect(within(form).getByLabelText(/^Full sister/)).toHaveValue(world.ids.get('MOTHER'));
    expect(within(form).getByRole('checkbox', { name: 'FBI 2015 Caucasian' })).toBeChecked();
    expect((await listed()).some((f) => f.name === 'Refused family')).toBe(false);
  });

  it('activates a family after confirmation and says how many remains profiles it searched and how many hits are new', async () => {
    await world.addFamily({ name: 'Searching family' });
    const view = await open('analyst');
    const searching = await card('Searching family');
    await userEvent.click(within(searching).getByRole('button', { name: 'Activate' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Activate this family?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    const counts = await within(searching).findByText(/^Searched 7 remains profiles; 1 new hit\./);
    expect(within(counts).getByRole('link', { name: 'See the case’s pending hits' })).toHaveAttribute('href', `/${world.orgId}/cases/${world.caseId}/hits`);
    expect(fact(searching, 'Status')).toHaveTextContent('Active (searching)');
    expect(fact(searching, 'Hits found')).toHaveTextContent('1');
    expect(within(searching).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(searching).getByRole('button', { name: 'Deactivate' })).toBeEnabled();
    await waitFor(() => expect(view.current()).toBe(`/${world.orgId}/cases/${world.caseId}`));
  });
});
