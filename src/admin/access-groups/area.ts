import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { accessGroupsApi } from './access-groups-api';
import { lazyPage } from '../../app/lazy-page';

const RoleEdit = lazyPage(() => import('./role-edit'), 'RoleEdit');
const RolesTable = lazyPage(() => import('./roles-table'), 'RolesTable');

/** Roles, called access groups (spec 2.7): the table and the role form; the breadcrumb shows the role name. */
export const accessGroupsArea: FeatureArea = {
  views: {
    AccessGroups: ({ params }: RouteViewProps) => createElement(RolesTable, { orgId: params.orgId! }),
    AccessGroupsEdit: ({ params }: RouteViewProps) => createElement(RoleEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { AccessGroupsEdit: async (api, id) => (await accessGroupsApi(api).get(id)).name },
};
