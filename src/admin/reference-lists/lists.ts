import type { Entity } from '../../../core/permissions';
import type { RouteName } from '../../app/routes';

/** The name-only reference lists (spec 2.7): where their calls go and which routes show them. */
export interface NamedList {
  entity: Entity;
  /** API path of the list, e.g. `/api/case-types`; a record is `{path}/{id}`. */
  path: '/api/organizations' | '/api/case-types' | '/api/sample-sources' | '/api/laboratories';
  table: RouteName & ('Organizations' | 'CaseTypes' | 'SampleSources' | 'Laboratories');
  edit: RouteName & ('OrganizationsEdit' | 'CaseTypesEdit' | 'SampleSourcesEdit' | 'LaboratoriesEdit');
  /** Singular, lower case: "case type". */
  what: string;
  /** The form's heading for a record: "Case type". */
  title: string;
}

export const NAMED_LISTS: readonly NamedList[] = [
  { entity: 'Organizations', path: '/api/organizations', table: 'Organizations', edit: 'OrganizationsEdit', what: 'organization', title: 'Organization' },
  { entity: 'CaseTypes', path: '/api/case-types', table: 'CaseTypes', edit: 'CaseTypesEdit', what: 'case type', title: 'Case type' },
  { entity: 'SampleSources', path: '/api/sample-sources', table: 'SampleSources', edit: 'SampleSourcesEdit', what: 'sample source', title: 'Sample source' },
  { entity: 'Laboratories', path: '/api/laboratories', table: 'Laboratories', edit: 'LaboratoriesEdit', what: 'laboratory', title: 'Laboratory' },
];
