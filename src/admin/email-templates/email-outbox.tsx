import { formatDateTime } from '../../cases/format';
import { DataTable, type DataColumn } from '../../ui/data-table/data-table';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { OutboxEmail } from './email-templates-api';

/** Where an e-mail is: sent, failed (with the server's answer) or held in the outbox. */
export function outboxStatus(mail: Pick<OutboxEmail, 'sentAt' | 'error' | 'attempts'>): string {
  if (mail.sentAt) return `Sent ${formatDateTime(mail.sentAt)}`;
  if (mail.error) return `Not sent after ${mail.attempts} ${mail.attempts === 1 ? 'try' : 'tries'}: ${mail.error}`;
  return 'In the outbox';
}

const COLUMNS: readonly DataColumn<OutboxEmail>[] = [
  { field: 'createdAt', header: 'Created', sortable: true, width: 180, text: (m) => formatDateTime(m.createdAt) },
  { field: 'to', header: 'To', sortable: true, filterable: true },
  { field: 'subject', header: 'Subject', sortable: true, filterable: true },
  { field: 'templateKey', header: 'Template', sortable: true, filterable: true, width: 150 },
  { field: 'text', header: 'Message', flex: 2 },
  { field: 'sentAt', header: 'Status', sortable: true, width: 220, text: outboxStatus },
];

/**
 * The e-mail outbox (ARCHITECTURE.md: without SMTP_URL e-mails stay here, readable in the app; with
 * it, each shows whether it was sent): who was told what, and when.
 */
export function EmailOutbox({ load }: { load(query: ListQueryInput): Promise<ListResult<OutboxEmail>> }) {
  return (
    <section className="page" aria-labelledby="email-outbox-title">
      <h2 id="email-outbox-title">Outbox</h2>
      <p className="field__hint">E-mails Locus sent or holds, newest first. Without an SMTP server (SMTP_URL) they stay here.</p>
      <DataTable<OutboxEmail> label="E-mails" columns={COLUMNS} load={load} emptyText="No e-mail has been sent yet." />
    </section>
  );
}
