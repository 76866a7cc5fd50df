import type { EmailTemplate, EmailTemplateInput, EmailTemplateSummary } from '../../../core/schemas/email-templates';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import type { components } from '../../api/schema';

/** One e-mail of the outbox, as GET email-outbox lists it. */
export type OutboxEmail = components['schemas']['OutboxEmail'];

/** The calls of the e-mail templates area (server/http/email-templates). */
export function emailTemplatesApi(api: ApiClient) {
  const item = (id: string) => ({ params: { path: { id } } });
  return {
    list: (query: ListQueryInput): Promise<ListResult<EmailTemplateSummary>> => unwrap(api.GET('/api/email-templates', { params: { query } })),
    get: (id: string): Promise<EmailTemplate> => unwrap(api.GET('/api/email-templates/{id}', item(id))),
    add: (body: EmailTemplateInput): Promise<EmailTemplate> => unwrap(api.POST('/api/email-templates', { body })),
    update: (id: string, body: EmailTemplateInput & { version: number }): Promise<EmailTemplate> =>
      unwrap(api.PUT('/api/email-templates/{id}', { ...item(id), body })),
    /** The e-mails Locus sent or holds (the outbox), newest first. */
    outbox: (query: ListQueryInput): Promise<ListResult<OutboxEmail>> => unwrap(api.GET('/api/email-outbox', { params: { query } })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/email-templates/{id}', item(id))).then(() => undefined),
  };
}
