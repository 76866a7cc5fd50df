import { useCallback, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { formatSmall } from '../../core/chance-display';
import { can } from '../../core/permissions';
import { HIT_STATUS_LABELS, type HitList as HitListName, type HitListQuery, type HitSummary } from '../../core/schemas/hits';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useOrganizationEvents } from '../app/use-organization-events';
import { usePrincipal } from '../app/use-principal';
import { formatDateTime } from '../cases/format';
import { DataTable, type DataColumn } from '../ui/data-table/data-table';
import { SyntheticLabel } from '../ui/synthetic-label';
import { HitDownloadButton } from './hit-download-button';
import { hitsApi, type HitCalls, type HitListOwner } from './hits-api';
import './hits.css';

/** The Profiles cell: each profile's sample and case, in role order, one per line (issue 18: a one-line cell hid the matched reference). */
export const hitProfilesText = (hit: Pick<HitSummary, 'profiles'>): string => hit.profiles.map((p) => `${p.sampleName} (${p.caseNumber})`).join(' ·\n');

/** The Population cell: the reported population, and how many more the hit was computed with. */
export const hitPopulationText = (hit: Pick<HitSummary, 'populationName' | 'figures'>): string => {
  const more = (hit.figures?.populations.length ?? 1) - 1;
  return `${hit.populationName ?? '–'}${more > 0 ? ` +${more} more` : ''}`;
};

/** The Probability cell: the reported figure (spec 4's text, as the server formats it), labelled when synthetic data took part. */
function HitProbability({ hit }: { hit: HitSummary }) {
  return (
    <>
      {hit.probability}
      <SyntheticLabel synthetic={hit.synthetic} />
    </>
  );
}

/**
 * Spec 2.4's columns (Date, Analysis, Probability, Population, Profiles), the rule that found the hit
 * and its expected chance hits (issue 12); All adds the status; each row downloads its PDF. No column
 * is sorted at first: the server lists the strongest first.
 */
function hitColumns(list: HitListName, calls: HitCalls): DataColumn<HitSummary>[] {
  return [
    { field: 'date', header: 'Date', sortable: true, width: 200, text: (h) => formatDateTime(h.date) },
    { field: 'analysisName', header: 'Analysis', sortable: true, filterable: true },
    { field: 'probability', header: 'Probability', sortable: true, width: 220, render: (h) => <HitProbability hit={h} /> },
    { field: 'populationName', header: 'Population', sortable: true, filterable: true, text: hitPopulationText },
    { field: 'profiles', header: 'Profiles', filterable: true, text: hitProfilesText, lines: (h) => h.profiles.length },
    { field: 'expectedChanceHits', header: 'Chance hits expected', sortable: true, width: 170, text: (h) => (h.expectedChanceHits === null ? '–' : formatSmall(h.expectedChanceHits)) },
    { field: 'searchRuleName', header: 'Rule', sortable: true, filterable: true, text: (h) => h.searchRuleName ?? '–' },
    ...(list === 'all' ? [{ field: 'status', header: 'Status', sortable: true, width: 120, text: (h: HitSummary) => HIT_STATUS_LABELS[h.status] }] : []),
    { field: 'download', header: 'Download', width: 170, render: (h) => <HitDownloadButton hitId={h.id} calls={calls} /> },
  ];
}

const EMPTY: Record<HitListName, string> = {
  pending: 'No hit is waiting for review.',
  published: 'No hit has been published.',
  rejected: 'No hit has been rejected.',
  all: 'No hits yet. Hits appear once approved profiles match.',
};

const LABELS: Record<HitListName, string> = { pending: 'Hits to review', published: 'Published hits', rejected: 'Rejected hits', all: 'All hits' };

const HIT_CHANGES = ['hits'] as const;

/**
 * One hit list (spec 2.4), server-side paged: of an organization (every reachable one at `all`), a
 * case or a profile. Each row opens HitView under `orgId`. The rows are read again when hits of
 * `orgId` change, whoever changed them (issue 12), or when `reloadKey` changes.
 */
export function HitList({
  orgId,
  owner,
  list,
  reloadKey = 0,
  selectColumn = null,
}: {
  orgId: string;
  owner: HitListOwner;
  list: HitListName;
  reloadKey?: number;
  /** The bulk review's checkboxes, leading the columns (the Review list, issue 18). */
  selectColumn?: DataColumn<HitSummary> | null;
}) {
  const api = useApi();
  const [changes, setChanges] = useState(0);
  useOrganizationEvents(can(usePrincipal(), 'Hits', 'Read', { orgId }) ? orgId : null, HIT_CHANGES, () => setChanges((n) => n + 1));
  const [, navigate] = useLocation();
  const calls = useMemo(() => hitsApi(api), [api]);
  const columns = useMemo(() => (selectColumn ? [selectColumn, ...hitColumns(list, calls)] : hitColumns(list, calls)), [list, calls, selectColumn]);
  const ownerKey = JSON.stringify(owner);
  const load = useCallback((query: HitListQuery) => calls.list(owner, list, query), [calls, ownerKey, list]);
  return (
    <DataTable<HitSummary>
      key={`${ownerKey}/${list}`}
      label={LABELS[list]}
      columns={columns}
      load={load}
      reloadKey={`${reloadKey}/${changes}`}
      rowHref={(hit) => routes.HitView.href({ orgId, id: hit.id })}
      onNavigate={navigate}
      emptyText={EMPTY[list]}
    />
  );
}
