import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../../server/clock';
import type { Database } from '../../../../server/db/database';
import { emailOutbox } from '../../../../server/db/schema';
import { enqueueEmails, textToHtml } from '../../../../server/mail/outbox';
import { createOutboxSender, LEASE_MS, type MailTransport } from '../../../../server/mail/outbox-sender';
import { freshPglite } from '../../../helpers/database';

let database: Database;
let now = new Date('2026-03-01T10:00:00Z');
const clock: Clock = { now: () => now };

class FakeTransport implements MailTransport {
  sent: { to: string; subject: string; from: string }[] = [];
  failFor = new Set<string>();
  async sendMail(message: { from: string; to: string; subject: string; text: string }) {
    if (this.failFor.has(message.to)) throw new Error('550 mailbox unavailable');
    this.sent.push({ to: message.to, subject: message.subject, from: message.from });
  }
}

const email = (to: string) => ({ to, subject: `Hello ${to}`, text: 'Body', html: null, templateKey: 'hit-published' });

beforeAll(async () => {
  database = await freshPglite();
}, 30_000);
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(emailOutbox);
  now = new Date('2026-03-01T10:00:00Z');
});

describe('the outbox sender', () => {
  it('leaves e-mails in the outbox when no SMTP server is configured (embedded mode)', async () => {
    await enqueueEmails(database.db, [email('a@lab.test')], now);
    const sender = createOutboxSender({ db: database.db, clock, transport: null, from: 'Locus <locus@lab.test>' });
    expect(await sender.deliverPending()).toBe(0);
    expect((await database.db.select().from(emailOutbox))[0]).toMatchObject({ sentAt: null, attempts: 0 });
  });

  it('delivers each e-mail once and stamps when it was sent', async () => {
    await enqueueEmails(database.db, [email('a@lab.test'), email('b@lab.test')], now);
    const transport = new FakeTransport();
    const sender = createOutboxSender({ db: database.db, clock, transport, from: 'Locus <locus@lab.test>' });
    expect(await sender.deliverPending()).toBe(2);
    expect(await sender.deliverPending()).toBe(0);
    expect(transport.sent.map((m) => [m.to, m.from]).sort()).toEqual([['a@lab.test', 'Locus <locus@lab.test>'], ['b@lab.test', 'Locus <locus@lab.test>']]);
    const rows = await database.db.select().from(emailOutbox);
    expect(rows.every((r) => r.sentAt?.getTime() === now.getTime() && r.error === null)).toBe(true);
  });

  it('keeps a failed e-mail with its error and tries again once the lease has run out', async () => {
    await enqueueEmails(database.db, [email('gone@lab.test')], now);
    const transport = new FakeTransport();
    transport.failFor.add('gone@lab.test');
    const sender = createOutboxSender({ db: database.db, clock, transport, from: 'locus@lab.test' });
    expect(await sender.deliverPending()).toBe(0);
    expect((await database.db.select().from(emailOutbox))[0]).toMatchObject({ sentAt: null, error: '550 mailbox unavailable', attempts: 1 });
    expect(await sender.deliverPending()).toBe(0);
    expect((await database.db.select().from(emailOutbox))[0]!.attempts).toBe(1);
    transport.failFor.clear();
    now = new Date(now.getTime() + LEASE_MS);
    expect(await sender.deliverPending()).toBe(1);
    expect((await database.db.select().from(emailOutbox))[0]).toMatchObject({ error: null, attempts: 2 });
  });
});

describe('an e-mail body as HTML', () => {
  it('escapes what users typed and keeps paragraphs and line breaks', () => {
    expect(textToHtml('Dear <b>Ann</b> & co,\n\nline one\nline two')).toBe('<p>Dear &lt;b&gt;Ann&lt;/b&gt; &amp; co,</p>\n<p>line one<br>line two</p>');
  });
});
