import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { chemistryApi } from './chemistry-api';
import { CHEMISTRY_SCREENS } from './chemistry-kinds';
import { lazyPage } from '../../app/lazy-page';

const ChemistriesTable = lazyPage(() => import('./chemistries-table'), 'ChemistriesTable');
const ChemistryEdit = lazyPage(() => import('./chemistry-edit'), 'ChemistryEdit');

/** Y-STR and autosomal chemistries (spec 2.7): a table and a form each; the breadcrumb shows the chemistry's name. */
export const chemistriesArea: FeatureArea = {
  views: Object.fromEntries(
    CHEMISTRY_SCREENS.flatMap((screens) => [
      [screens.table, ({ params }: RouteViewProps) => createElement(ChemistriesTable, { screens, orgId: params.orgId! })],
      [screens.edit, ({ params }: RouteViewProps) => createElement(ChemistryEdit, { key: params.id, screens, orgId: params.orgId!, id: params.id! })],
    ]),
  ),
  names: Object.fromEntries(CHEMISTRY_SCREENS.map((screens) => [screens.edit, async (api, id) => (await chemistryApi(api, screens).get(id)).name])),
};
