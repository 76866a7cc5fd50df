import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { emailTemplatesApi } from './email-templates-api';
import { lazyPage } from '../../app/lazy-page';

const EmailTemplateEdit = lazyPage(() => import('./email-template-edit'), 'EmailTemplateEdit');
const EmailTemplatesTable = lazyPage(() => import('./email-templates-table'), 'EmailTemplatesTable');

/** E-mail templates (spec 2.7): the table and EmailTemplateForm, whose breadcrumb shows the subject. */
export const emailTemplatesArea: FeatureArea = {
  views: {
    EmailTemplates: ({ params }: RouteViewProps) => createElement(EmailTemplatesTable, { orgId: params.orgId! }),
    EmailTemplateForm: ({ params }: RouteViewProps) => createElement(EmailTemplateEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { EmailTemplateForm: async (api, id) => (await emailTemplatesApi(api).get(id)).subject },
};
