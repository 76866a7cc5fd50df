import { createElement } from 'react';
import type { FeatureArea, RecordNameLookup } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import type { RouteName } from '../app/routes';
import type { CaseHitList } from './case-hits-tab';
import { involvedPartiesApi, physicalItemsApi } from './case-records-api';
import type { CaseTab } from './case-view';
import { casesApi } from './cases-api';
import { lazyPage } from '../app/lazy-page';

const CaseEdit = lazyPage(() => import('./case-edit'), 'CaseEdit');
const CaseView = lazyPage(() => import('./case-view'), 'CaseView');
const CasesTable = lazyPage(() => import('./cases-table'), 'CasesTable');
const InvolvedPartyEdit = lazyPage(() => import('./involved-party-edit'), 'InvolvedPartyEdit');
const PhysicalItemEdit = lazyPage(() => import('./physical-item-edit'), 'PhysicalItemEdit');

/** Which tab (and hit list) each route of the case view shows. */
const TAB_OF_ROUTE: Partial<Record<RouteName, [CaseTab, CaseHitList?]>> = {
  CaseInvolvedParties: ['parties'],
  CaseItems: ['items'],
  CaseHits: ['hits', 'review'],
  CaseHitsPublished: ['hits', 'published'],
  CaseHitsRejected: ['hits', 'rejected'],
  CaseHitsAll: ['hits', 'all'],
  CaseProfiles: ['profiles'],
  CaseAudit: ['audit'],
  CaseSettings: ['settings'],
};

// One component for every tab, keyed by case, so moving between tabs keeps the case read once.
const caseView = ({ route, params }: RouteViewProps) => {
  const [tab, hitList = 'review'] = TAB_OF_ROUTE[route.name] ?? ['parties'];
  return createElement(CaseView, { key: params.caseId, orgId: params.orgId!, caseId: params.caseId!, tab, hitList });
};

const caseRecord = ({ params }: RouteViewProps) => ({ key: `${params.caseId}/${params.id}`, orgId: params.orgId!, caseId: params.caseId!, id: params.id! });

/** The case crumb shows the case number (spec 2.8 "Its breadcrumb shows the case id"). */
const caseNumber: RecordNameLookup = async (api, id) => (await casesApi(api).get(id)).caseNumber;

/** Cases (spec 2.8): the list, the case form, the case view with its tabs, and the party and item forms. */
export const casesArea: FeatureArea = {
  views: {
    Cases: ({ params }: RouteViewProps) => createElement(CasesTable, { key: params.orgId, orgId: params.orgId! }),
    CaseEdit: ({ params }: RouteViewProps) => createElement(CaseEdit, { key: params.caseId, orgId: params.orgId!, caseId: params.caseId! }),
    ...Object.fromEntries(Object.keys(TAB_OF_ROUTE).map((name) => [name, caseView])),
    InvolvedPartyEdit: (props: RouteViewProps) => createElement(InvolvedPartyEdit, caseRecord(props)),
    PhysicalItemEdit: (props: RouteViewProps) => createElement(PhysicalItemEdit, caseRecord(props)),
  },
  names: {
    CaseEdit: caseNumber,
    CaseInvolvedParties: caseNumber,
    InvolvedPartyEdit: async (api, id, params) => (await involvedPartiesApi(api).get(params.caseId!, id)).title,
    PhysicalItemEdit: async (api, id, params) => (await physicalItemsApi(api).get(params.caseId!, id)).itemId,
  },
};
