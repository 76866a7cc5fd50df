import { eq } from 'drizzle-orm';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTACT_NO_EFFECT_MESSAGE } from '../../../core/schemas/settings-texts';
import { settings } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

let t: TestApp;
let adminToken: string;
let orgAdminToken: string;
let userToken: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.insert(settings).values([
    { id: 'About', text: '<p>Locus keeps <strong>forensic DNA</strong> cases.</p>' },
    { id: 'Contact', text: '<p>Call the lab on +47 555 00 000.</p>' },
  ]);
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [orgId] })).id);
  orgAdminToken = t.verifier.issue((await createUser(db, { accessGroupId: admins.id, organizationIds: [orgId] })).id);
  const analysts = await createAccessGroup(db, { grants: { Cases: ['Read'], Settings: ['Edit'] } });
  userToken = t.verifier.issue((await createUser(db, { accessGroupId: analysts.id, organizationIds: [orgId] })).id);
}, 60_000);
afterAll(() => t.close());

const storedAbout = async () => (await t.database.db.select().from(settings).where(eq(settings.id, 'About')))[0]!;

describe('About us', () => {
  it.each([
    ['a user (even one granted Settings Edit)', () => userToken],
    ['an administrator with organization scope', () => orgAdminToken],
  ])('shows %s the text without Edit', async (_who, token) => {
    renderScreen(`/${orgId}/about`, { t, token: token(), me: await meOf(t, token()) });
    expect(await screen.findByText('forensic DNA')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'About us' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit text' })).not.toBeInTheDocument();
  });

  it('lets an administrator with scope All edit and save the text', async () => {
    renderScreen(`/${orgId}/about`, { t, token: adminToken, me: await meOf(t, adminToken) });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit text' }));
    const editor = screen.getByRole('textbox', { name: 'Text of About us' });
    expect(screen.getByRole('toolbar', { name: 'Formatting' })).toBeInTheDocument();
    expect(within(editor).getByText('forensic DNA').tagName).toBe('STRONG');
    // Put the caret after "cases." (jsdom does not place it from a click), then type.
    const caret = document.createRange();
    caret.setStart(editor.querySelector('p')!.lastChild!, ' cases.'.length);
    editor.focus();
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(caret);
    await userEvent.keyboard(' Ask us.');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Text of About us' })).not.toBeInTheDocument());
    expect(await screen.findByText(/cases\. Ask us\./)).toBeInTheDocument();
    expect(await storedAbout()).toMatchObject({ text: '<p>Locus keeps <strong>forensic DNA</strong> cases. Ask us.</p>', version: 2 });
  });

  it('refuses a link target other than http, https or mailto in the link dialog', async () => {
    renderScreen(`/${orgId}/about`, { t, token: adminToken, me: await meOf(t, adminToken) });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit text' }));
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link' });
    await userEvent.type(within(dialog).getByLabelText('Link address'), 'javascript:alert(1)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply link' }));
    expect(within(dialog).getByText('A link must start with http://, https:// or mailto:')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('draws stored text only through DOMPurify: no script, no event handler, no javascript: link', async () => {
    // Written past the API, as if the database had been tampered with.
    await t.database.db
      .update(settings)
      .set({ text: '<p>Hi<img src=x onerror="window.hacked=1"><script>window.hacked=2</script><a href="javascript:window.hacked=3">link</a></p>' })
      .where(eq(settings.id, 'About'));
    const view = renderScreen(`/${orgId}/about`, { t, token: userToken, me: await meOf(t, userToken) });
    const link = await screen.findByText('link');
    expect(link).not.toHaveAttribute('href');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(view.container.querySelector('img, script, [onerror]')).toBeNull();
  });
});

describe('Contact', () => {
  it('validates the contact form, then says it had no effect, without any request', async () => {
    renderScreen(`/${orgId}/contact`, { t, token: userToken, me: await meOf(t, userToken) });
    expect(await screen.findByText('Call the lab on +47 555 00 000.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findAllByText('Required')).toHaveLength(3);
    await userEvent.type(screen.getByLabelText(/^Name/), 'Ada Lovelace');
    await userEvent.type(screen.getByLabelText(/^E-mail/), 'not-an-address');
    await userEvent.type(screen.getByLabelText(/^Message/), 'Please add a population.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Enter an e-mail address such as name@lab.org')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/^E-mail/));
    await userEvent.type(screen.getByLabelText(/^E-mail/), 'ada@lab.org');
    const requests = vi.spyOn(t.app, 'inject');
    const fetches = vi.spyOn(globalThis, 'fetch');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('status')).toHaveTextContent(CONTACT_NO_EFFECT_MESSAGE);
    expect(requests).not.toHaveBeenCalled();
    expect(fetches).not.toHaveBeenCalled();
    // Nothing was sent, so the text stays for the user to copy.
    expect(screen.getByLabelText(/^Message/)).toHaveValue('Please add a population.');
    requests.mockRestore();
    fetches.mockRestore();
  });

  it('offers Edit on the Contact text only to an administrator with scope All', async () => {
    renderScreen(`/${orgId}/contact`, { t, token: adminToken, me: await meOf(t, adminToken) });
    expect(await screen.findByRole('button', { name: 'Edit text' })).toBeInTheDocument();
  });
});
