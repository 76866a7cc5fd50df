import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { EMAIL_HOOK_NAMES, EmailTemplateFormInput, type EmailTemplate, type EmailTemplateInput } from '../../../core/schemas/email-templates';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { SelectField } from '../../ui/form/select-field';
import { TextareaField } from '../../ui/form/textarea-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { emailTemplatesApi } from './email-templates-api';
import { PlaceholderList, TemplatePreview } from './template-preview';
import './email-templates.css';

const HOOK_OPTIONS = EMAIL_HOOK_NAMES.map((hook) => ({ value: hook, label: hook }));

/**
 * EmailTemplateForm (spec 2.7): the hook, subject and plain-text body with {placeholders}. The form
 * refuses placeholders the hook does not fill (the server does too) and previews the e-mail.
 */
export function EmailTemplateEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => emailTemplatesApi(api), [api]);
  const editor = useRecordEditor<EmailTemplate, EmailTemplateInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes.EmailTemplates.href({ orgId });
  const values = useMemo(() => {
    const source = editor.draft ?? editor.record;
    return { hook: (source?.hook ?? '') as EmailTemplateInput['hook'], subject: source?.subject ?? '', body: source?.body ?? '' };
  }, [editor.record]);
  const mayEdit = can(principal, 'EmailTemplates', editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage
      title={editor.isNew ? 'New email template' : 'Email template'}
      editor={editor}
      doneHref={tableHref}
      deleteWhat={(r) => `the ${r.hook} template "${r.subject}"`}
    >
      <div className="template-editor">
        <RecordForm
          schema={EmailTemplateFormInput}
          values={values}
          onSubmit={editor.save}
          busy={editor.status === 'saving'}
          cancelHref={tableHref}
          readOnly={!mayEdit}
          onDelete={!editor.isNew && can(principal, 'EmailTemplates', 'Delete') ? editor.askDelete : undefined}
        >
          <SelectField name="hook" label="Hook" hint="The event that sends this e-mail." options={HOOK_OPTIONS} placeholder="Choose a hook" required />
          <TextField name="subject" label="Subject" required />
          <TextareaField name="body" label="Body" hint="Plain text. Write a placeholder as {name}; the list below shows what this hook fills in." rows={14} required />
          <PlaceholderList />
          <TemplatePreview />
        </RecordForm>
      </div>
    </EditorPage>
  );
}
