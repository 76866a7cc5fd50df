import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { NAMED_LISTS } from './lists';
import { namedListApi } from './named-list-api';
import { lazyPage } from '../../app/lazy-page';

const NamedListEdit = lazyPage(() => import('./named-list-edit'), 'NamedListEdit');
const NamedListTable = lazyPage(() => import('./named-list-table'), 'NamedListTable');

/** Organizations, case types, sample sources and laboratories: a table and a Name form each. */
export const referenceListsArea: FeatureArea = {
  views: Object.fromEntries(
    NAMED_LISTS.flatMap((list) => [
      [list.table, ({ params }: RouteViewProps) => createElement(NamedListTable, { list, orgId: params.orgId! })],
      [list.edit, ({ params }: RouteViewProps) => createElement(NamedListEdit, { key: params.id, list, orgId: params.orgId!, id: params.id! })],
    ]),
  ),
  names: Object.fromEntries(NAMED_LISTS.map((list) => [list.edit, async (api, id) => (await namedListApi(api, list).get(id)).name])),
};
