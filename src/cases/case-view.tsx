import { useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { can } from '../../core/permissions';
import type { InvolvedParty, PhysicalItem } from '../../core/schemas/cases';
import { useApi } from '../app/api-provider';
import { canOpen } from '../app/route-access';
import { getRoute, routes, type RouteName } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { AuditTrail } from '../ui/audit-trail/audit-trail';
import { CaseAnalysisLinks } from '../analyses/case-analysis-links';
import { involvedPartiesApi, physicalItemsApi } from './case-records-api';
import { CaseFamilies } from './case-families';
import { CaseHitsTab, type CaseHitList } from './case-hits-tab';
import { CaseProfilesTab } from './case-profiles-tab';
import { ITEM_COLUMNS, PARTY_COLUMNS } from './case-record-columns';
import { CaseRecordTable } from './case-record-table';
import { CaseSettingsTab } from './case-settings-tab';
import { CaseSummary } from './case-summary';
import { casesApi } from './cases-api';
import { familiesApi } from './families-api';
import { LinkTabs } from '../ui/link-tabs';
import { useCase } from './use-case';
import './cases.css';

/** The tabs of the case view (spec 2.8), each a route. */
export type CaseTab = 'parties' | 'items' | 'hits' | 'profiles' | 'audit' | 'settings';

interface CaseViewProps {
  orgId: string;
  caseId: string;
  tab: CaseTab;
  hitList: CaseHitList;
}

/**
 * The case view (spec 2.8): the case's facts, then its tabs (involved parties by default, with the
 * case's missing-person families of issue 16 below them; items, hits, profiles, audit, settings).
 * A tab the user may not open is not shown. One component for every tab, so moving between them
 * reads the case once.
 */
export function CaseView({ orgId, caseId, tab, hitList }: CaseViewProps) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => casesApi(api), [api]);
  const parties = useMemo(() => involvedPartiesApi(api), [api]);
  const items = useMemo(() => physicalItemsApi(api), [api]);
  const families = useMemo(() => familiesApi(api), [api]);
  const { state, reload, replace } = useCase(caseId, calls.get);

  const params = { orgId, caseId };
  const opens = (name: RouteName, extra: Record<string, string> = {}) => canOpen(principal, getRoute(name), { ...params, ...extra });
  // The forms need Cases Edit to save (server/http/cases/case-child-routes.ts) besides what their route asks.
  const edits = can(principal, 'Cases', 'Edit');
  const addsTo = (name: 'InvolvedPartyEdit' | 'PhysicalItemEdit') => edits && opens(name, { id: 'new' });
  const hitsHref = opens('CaseHits') ? routes.CaseHits.href(params) : routes.CaseHitsAll.href(params);
  const tabs = [
    { tab: 'parties', label: 'Involved parties', href: routes.CaseInvolvedParties.href(params), shown: true },
    { tab: 'items', label: 'Items', href: routes.CaseItems.href(params), shown: opens('CaseItems') },
    { tab: 'hits', label: 'Hits', href: hitsHref, shown: opens('CaseHitsAll') },
    { tab: 'profiles', label: 'Profiles', href: routes.CaseProfiles.href(params), shown: opens('CaseProfiles') },
    { tab: 'audit', label: 'Audit', href: routes.CaseAudit.href(params), shown: opens('CaseAudit') },
    { tab: 'settings', label: 'Settings', href: routes.CaseSettings.href(params), shown: opens('CaseSettings') },
  ].filter((t) => t.shown);

  let content: ReactNode;
  if (state.status === 'loading') {
    content = (
      <p role="status" aria-busy="true">
        Loading…
      </p>
    );
  } else if (state.status === 'failed') {
    content = (
      <div className="notice notice--negative" role="alert">
        <p>{state.error.status === 404 ? 'This case no longer exists.' : state.error.message}</p>
        {state.error.status !== 404 ? (
          <button type="button" className="button button--secondary" onClick={reload}>
            Try again
          </button>
        ) : null}
      </div>
    );
  } else {
    const record = state.record;
    const tabContent: Record<CaseTab, () => ReactNode> = {
      parties: () => (
        <>
          <CaseRecordTable<InvolvedParty>
            title="Involved parties"
            caseId={caseId}
            columns={PARTY_COLUMNS}
            load={parties.list}
            rowHref={edits ? (row) => routes.InvolvedPartyEdit.href({ ...params, id: row.id }) : undefined}
            addHref={addsTo('InvolvedPartyEdit') ? routes.InvolvedPartyEdit.href({ ...params, id: 'new' }) : undefined}
            addLabel="Add involved party"
            emptyText="No involved parties yet."
          />
          <CaseFamilies caseId={caseId} organizationId={record.organizationId} calls={families} canEdit={edits} hitsHref={hitsHref} />
          {opens('AnalysisGroupAnalyses', { analysisGroupId: 'new' }) ? <CaseAnalysisLinks orgId={orgId} caseId={caseId} /> : null}
        </>
      ),
      items: () => (
        <CaseRecordTable<PhysicalItem>
          title="Physical items"
          caseId={caseId}
          columns={ITEM_COLUMNS}
          load={items.list}
          rowHref={edits ? (row) => routes.PhysicalItemEdit.href({ ...params, id: row.id }) : undefined}
          addHref={addsTo('PhysicalItemEdit') ? routes.PhysicalItemEdit.href({ ...params, id: 'new' }) : undefined}
          addLabel="Add item"
          emptyText="No physical items yet."
        />
      ),
      hits: () => <CaseHitsTab orgId={orgId} caseId={caseId} list={hitList} />,
      profiles: () => <CaseProfilesTab orgId={orgId} caseId={caseId} calls={calls} />,
      audit: () => (
        <>
          <h2>Audit trail</h2>
          <AuditTrail label="Case audit trail" load={(query) => calls.audit(caseId, query)} onExport={(format, timeZone) => calls.exportAudit(caseId, format, timeZone)} />
        </>
      ),
      settings: () => (
        <CaseSettingsTab record={record} calls={calls} onSaved={replace} onReload={reload} cancelHref={routes.CaseInvolvedParties.href(params)} />
      ),
    };
    content = (
      <>
        <CaseSummary record={record} />
        <LinkTabs label="Case" tabs={tabs.map((t) => ({ label: t.label, href: t.href, current: t.tab === tab }))} />
        <div className="case-tab">{tabContent[tab]()}</div>
      </>
    );
  }

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{state.status === 'loaded' ? `Case ${state.record.caseNumber}` : 'Case'}</h1>
        {state.status === 'loaded' && opens('CaseEdit') ? (
          <Link href={routes.CaseEdit.href(params)} className="button button--secondary">
            Edit
          </Link>
        ) : null}
      </div>
      {content}
    </section>
  );
}
