import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { EmailTemplateSummary } from '../../../core/schemas/email-templates';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { EmailOutbox } from './email-outbox';
import { emailTemplatesApi } from './email-templates-api';

/** Spec 2.7 Email templates: Name (the hook), Subject; below, the outbox for those who manage the templates. */
export function EmailTemplatesTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => emailTemplatesApi(api), [api]);
  return (
    <>
      <TablePage<EmailTemplateSummary>
        title={routes.EmailTemplates.title}
        columns={[
          { field: 'hook', header: 'Name', sortable: true, filterable: true },
          { field: 'subject', header: 'Subject', sortable: true, filterable: true },
        ]}
        load={calls.list}
        rowHref={(row) => routes.EmailTemplateForm.href({ orgId, id: row.id })}
        addHref={can(principal, 'EmailTemplates', 'Add') ? routes.EmailTemplateForm.href({ orgId, id: 'new' }) : undefined}
        addLabel="Add email template"
      />
      {can(principal, 'EmailTemplates', 'Edit') ? <EmailOutbox load={calls.outbox} /> : null}
    </>
  );
}
