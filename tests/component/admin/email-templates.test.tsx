import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_EMAIL_TEMPLATES } from '../../../core/schemas/email-templates';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { emailOutbox } from '../../../server/db/schema';
import { enqueueEmails } from '../../../server/mail/outbox';
import { meOf, renderScreen } from '../screen-fixtures';

// These screens draw AG Grid, whose first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

let t: TestApp;
let adminToken: string;
let orgAdminToken: string;
let orgId: string;
let hitTemplateId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [orgId] })).id);
  orgAdminToken = t.verifier.issue((await createUser(db, { accessGroupId: admins.id, organizationIds: [orgId] })).id);
  for (const template of DEFAULT_EMAIL_TEMPLATES) {
    const res = await t.app.inject({ method: 'POST', url: '/api/email-templates', headers: { authorization: `Bearer ${adminToken}` }, payload: template });
    if (template.hook === 'hit-published') hitTemplateId = res.json().id;
  }
}, 60_000);
afterAll(() => t.close());

const stored = async () =>
  (await t.app.inject({ method: 'GET', url: `/api/email-templates/${hitTemplateId}`, headers: { authorization: `Bearer ${adminToken}` } })).json() as { body: string; version: number };

describe('e-mail templates', () => {
  it('lists each template by its hook (Name) and subject', async () => {
    renderScreen(`/${orgId}/email-templates`, { t, token: adminToken, me: await meOf(t, adminToken) });
    // The first grid of the file loads AG Grid cold; allow it more than the default second.
    expect(await screen.findByText('hit-published', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Set your Locus password')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add email template' })).toBeInTheDocument();
  });

  it('edits a template with a live preview of the e-mail; the breadcrumb shows the subject', async () => {
    const view = renderScreen(`/${orgId}/email-templates/${hitTemplateId}`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const body = await screen.findByLabelText(/^Body/);
    expect(await within(screen.getByRole('navigation', { name: 'Breadcrumb' })).findByText('Hit published in case {caseId}')).toBeInTheDocument();
    expect(screen.getByTestId('preview-subject')).toHaveTextContent('Hit published in case CASE-2026-0042');
    expect(screen.getByTestId('preview-body')).toHaveTextContent('Dear Ada Lovelace,');
    await userEvent.clear(body);
    // paste, not type: user-event reads "{…}" in typed text as key names.
    await userEvent.click(body);
    await userEvent.paste('Dear {recipientName}, {publishedBy} published a hit ({probability}).');
    expect(screen.getByTestId('preview-body')).toHaveTextContent('Dear Ada Lovelace, Grace Hopper published a hit (99.99% (1.25e+6)).');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/email-templates`));
    expect(await stored()).toMatchObject({ body: 'Dear {recipientName}, {publishedBy} published a hit ({probability}).', version: 2 });
  });

  it('shows an unknown placeholder as an error on the field and saves nothing', async () => {
    renderScreen(`/${orgId}/email-templates/${hitTemplateId}`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const body = await screen.findByLabelText(/^Body/);
    await userEvent.click(body);
    await userEvent.paste(' Signed, {labName}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const message = 'Unknown placeholder {labName}; hit-published offers {recipientName}, {caseId}, {hitUrl}, {analysis}, {probability}, {publishedBy}, {comments}';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(body).toHaveAttribute('aria-invalid', 'true');
    // The preview leaves what it cannot fill as written.
    expect(screen.getByTestId('preview-body')).toHaveTextContent('Signed, {labName}');
    expect((await stored()).version).toBe(2);
  });

  it('refuses a second template for a hook with the server\u2019s message; a new template\u2019s breadcrumb says New', async () => {
    renderScreen(`/${orgId}/email-templates/new`, { t, token: adminToken, me: await meOf(t, adminToken) });
    expect(await screen.findByRole('heading', { name: 'New email template' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('New')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Required')).toHaveLength(3);
    await userEvent.selectOptions(screen.getByLabelText(/^Hook/), 'password-link');
    await userEvent.type(screen.getByLabelText(/^Subject/), 'Your password');
    await userEvent.click(screen.getByLabelText(/^Body/));
    await userEvent.paste('Open {link}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A template for password-link already exists; edit that one instead');
  });

  it('shows the outbox below the templates: each e-mail with its recipient, subject, message and whether it was sent', async () => {
    const at = new Date('2026-11-20T10:00:00Z');
    await enqueueEmails(t.database.db, [
      { to: 'nina@oslo.test', subject: 'Hit published in case OSL-7', text: 'Dear Nina, a hit was published.', html: null, templateKey: 'hit-published' },
      { to: 'ola@oslo.test', subject: 'Hit published in case OSL-8', text: 'Dear Ola, a hit was published.', html: null, templateKey: 'hit-published' },
    ], at);
    await t.database.db.update(emailOutbox).set({ error: 'connect ECONNREFUSED 10.0.0.5:587', attempts: 2 }).where(eq(emailOutbox.to, 'ola@oslo.test'));
    renderScreen(`/${orgId}/email-templates`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const outbox = within(await screen.findByRole('region', { name: 'Outbox' }));
    const nina = (await outbox.findByText('nina@oslo.test')).closest('[role="row"]') as HTMLElement;
    expect(within(nina).getByText('Hit published in case OSL-7')).toBeInTheDocument();
    expect(within(nina).getByText('Dear Nina, a hit was published.')).toBeInTheDocument();
    expect(within(nina).getByText('In the outbox')).toBeInTheDocument();
    const ola = outbox.getByText('ola@oslo.test').closest('[role="row"]') as HTMLElement;
    expect(within(ola).getByText('Not sent after 2 tries: connect ECONNREFUSED 10.0.0.5:587')).toBeInTheDocument();
  });

  it('lets an administrator with organization scope list templates but not open the form (spec 6)', async () => {
    const me = await meOf(t, orgAdminToken);
    const table = renderScreen(`/${orgId}/email-templates`, { t, token: orgAdminToken, me });
    expect(await screen.findByText('hit-published')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add email template' })).not.toBeInTheDocument();
    table.unmount();
    renderScreen(`/${orgId}/email-templates/${hitTemplateId}`, { t, token: orgAdminToken, me });
    expect(await screen.findByText('You do not have permission to open this page.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Body/)).not.toBeInTheDocument();
  });
});
