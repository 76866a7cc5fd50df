import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { populationApi } from './population-api';
import { lazyPage } from '../../app/lazy-page';

const PopulationEdit = lazyPage(() => import('./population-edit'), 'PopulationEdit');
const PopulationUpload = lazyPage(() => import('./population-upload'), 'PopulationUpload');
const PopulationsTable = lazyPage(() => import('./populations-table'), 'PopulationsTable');

/** Populations (spec 2.7): the table, the edit screen with its statistics, and Upload Statistics. */
export const populationsArea: FeatureArea = {
  views: {
    Populations: ({ params }: RouteViewProps) => createElement(PopulationsTable, { key: params.orgId, orgId: params.orgId! }),
    PopulationsEdit: ({ params }: RouteViewProps) => createElement(PopulationEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
    PopulationsUpload: ({ params }: RouteViewProps) => createElement(PopulationUpload, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  // PopulationsUpload's crumb is the fixed text "Upload Statistics"; its parent shows the population's name.
  names: { PopulationsEdit: async (api, id) => (await populationApi(api).get(id)).name },
};
