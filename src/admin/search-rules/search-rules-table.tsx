import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { SEARCH_TRIGGER_LABELS, type SearchRule } from '../../../core/schemas/search-rules';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { TablePage } from '../../ui/record/table-page';
import { searchRulesApi } from './search-rules-api';
import { populationsText, stringencyOrThreshold } from './rule-text';
import './search-rules.css';

interface SearchRulesTableViewProps {
  orgId: string;
  load(query: ListQueryInput): Promise<ListResult<SearchRule>>;
  mayAdd: boolean;
}

/** The search rules table (ARCHITECTURE.md "Search policy"), given its list call: what each rule searches, with what, and when. */
export function SearchRulesTableView({ orgId, load, mayAdd }: SearchRulesTableViewProps) {
  return (
    <TablePage<SearchRule>
      title={routes.SearchRules.title}
      intro={<p className="search-rules__intro">Approving a profile runs the active rules “On approval” of its sample type; rules “On request” run when a user asks (familial search).</p>}
      columns={[
        { field: 'name', header: 'Name', sortable: true, filterable: true },
        { field: 'trigger', header: 'Runs', sortable: true, text: (r) => SEARCH_TRIGGER_LABELS[r.trigger], width: 130 },
        { field: 'searchingSampleTypes', header: 'Searching sample types', filterable: true, text: (r) => r.searchingSampleTypes.join(', ') },
        { field: 'searchedSampleTypes', header: 'Searched sample types', filterable: true, text: (r) => r.searchedSampleTypes.join(', ') },
        { field: 'analysisName', header: 'Analysis', sortable: true, filterable: true },
        { field: 'stringency', header: 'Stringency or threshold', sortable: true, text: stringencyOrThreshold },
        { field: 'populationNames', header: 'Populations', text: populationsText },
        { field: 'active', header: 'Active', sortable: true, text: (r) => (r.active ? 'Yes' : 'No'), width: 100 },
      ]}
      load={load}
      rowHref={(row) => routes.SearchRulesEdit.href({ orgId, id: row.id })}
      addHref={mayAdd ? routes.SearchRulesEdit.href({ orgId, id: 'new' }) : undefined}
      addLabel="Add search rule"
    />
  );
}

/** The search rules table at /{orgId}/search-rules; Add for administrators with scope All. */
export function SearchRulesTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => searchRulesApi(api), [api]);
  return <SearchRulesTableView orgId={orgId} load={calls.list} mayAdd={can(principal, 'SearchRules', 'Add')} />;
}
