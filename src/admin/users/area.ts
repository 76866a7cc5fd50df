import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { usersApi } from './users-api';
import { lazyPage } from '../../app/lazy-page';

const UserEdit = lazyPage(() => import('./user-edit'), 'UserEdit');
const UsersTable = lazyPage(() => import('./users-table'), 'UsersTable');

/** Users (spec 2.7): the table and the user form; the breadcrumb shows the user's e-mail. */
export const usersArea: FeatureArea = {
  views: {
    Users: ({ params }: RouteViewProps) => createElement(UsersTable, { orgId: params.orgId! }),
    UsersEdit: ({ params }: RouteViewProps) => createElement(UserEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { UsersEdit: async (api, id) => (await usersApi(api).get(id)).email },
};
