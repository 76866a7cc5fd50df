import { useMemo } from 'react';
import { Link } from 'wouter';
import { can } from '../../core/permissions';
import type { CandidateMatch, CandidateMatchStatus } from '../../core/schemas/candidate-matches';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useDocumentTitle } from '../app/use-document-title';
import { usePrincipal } from '../app/use-principal';
import { formatDateTime } from '../cases/format';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { DecisionButtons, type TwoWayDecision } from '../ui/decision-buttons';
import { RecordTable } from '../ui/record-table';
import { candidateMatchesApi, type CandidateMatchCalls } from './candidate-matches-api';

const STATUS_LABELS: Record<CandidateMatchStatus, string> = { pending: 'Waiting for a decision', confirmed: 'Confirmed', rejected: 'Rejected' };
const STRINGENCY_LABELS = { high: 'High', moderate: 'Moderate', low: 'Low' } as const;

/** The reported population's LR and match probability (else the first's): what CODIS shows beside a candidate match. */
function Statistics({ match }: { match: CandidateMatch }) {
  const shown = match.statistics.find((s) => s.reported) ?? match.statistics[0];
  if (!shown) return <>—</>;
  const lr = shown.combinedIndex === null ? null : `LR ${shown.combinedIndex.toPrecision(3)}`;
  return (
    <>
      {[lr, shown.probability].filter(Boolean).join(' · ')}
      {shown.population ? ` (${shown.population})` : ''}
    </>
  );
}

/**
 * Candidate matches (issue 32): the matches the upper level's search found between this laboratory's uploaded profiles
 * and profiles held there. Only the other side's specimen id, laboratory and instance, the stringency and the
 * statistics come down; a reviewer (Hits Publish) confirms a match or rejects it with a reason, and the upper level is told.
 */
export function CandidateMatchesPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => candidateMatchesApi(api), [api]);
  const loaded = useLoaded(`candidate-matches/${orgId}`, () => calls.list(orgId));
  const title = routes.CandidateMatches.title;
  const canDecide = can(usePrincipal(), 'Hits', 'Publish', { orgId });
  useDocumentTitle(title);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <p>
        The upper instance searched this laboratory’s uploaded profiles against every profile it holds. For each match you see your profile, the other side’s
        specimen id, laboratory and instance, the stringency and the statistics, never the other laboratory’s genotype. Confirming or rejecting tells the
        upper instance.
      </p>
      <LoadState loaded={loaded} missing="The candidate matches could not be found.">
        {(matches) => <CandidateMatchTable matches={matches} calls={calls} canDecide={canDecide} onDecided={loaded.reload} />}
      </LoadState>
    </section>
  );
}

/** The matches, pending first as the server sorts them, with Confirm and Reject on the pending ones for a reviewer. */
export function CandidateMatchTable({ matches, calls, canDecide, onDecided }: { matches: CandidateMatch[]; calls: Pick<CandidateMatchCalls, 'confirm' | 'reject'>; canDecide: boolean; onDecided(): void }) {
  const other = (m: CandidateMatch) => m.counterparts.map((c) => `${c.specimenId} (${c.laboratory}, ${c.instance})`).join('; ');
  const decision: TwoWayDecision<CandidateMatch> = {
    agree: {
      label: 'Confirm',
      title: 'Confirm the candidate match?',
      says: (m) => `Confirm that ${m.sampleName} matches ${other(m)}? The upper instance is told; this cannot be undone.`,
      run: (m) => calls.confirm(m),
    },
    decline: { label: 'Reject', title: 'Reject the candidate match?', reasonLabel: 'Reason (the upper instance is told)', run: (m, reason) => calls.reject(m, reason) },
  };
  return (
    <DecisionButtons decision={decision} onDecided={onDecided}>
      {(buttonsOf) => (
        <RecordTable columns={['Your profile', 'Matched with', 'Analysis', 'Stringency', 'Statistics', 'Found', 'Status']} actions empty="There are no candidate matches here." isEmpty={matches.length === 0}>
          {matches.map((m) => (
            <tr key={m.id}>
              <th scope="row">
                <Link href={routes.ProfilesView.href({ orgId: m.organizationId, caseId: m.caseId, sampleid: m.profileId })}>{m.sampleName}</Link> (case {m.caseNumber})
              </th>
              <td>{other(m)}</td>
              <td>{m.analysis}</td>
              <td>{m.stringency ? STRINGENCY_LABELS[m.stringency.stringency] : '—'}</td>
              <td>
                <Statistics match={m} />
              </td>
              <td>{formatDateTime(m.foundAt)}</td>
              <td>{m.status === 'rejected' && m.reason ? `Rejected: ${m.reason}` : STATUS_LABELS[m.status]}</td>
              <td>{m.status === 'pending' && canDecide ? buttonsOf(m) : null}</td>
            </tr>
          ))}
        </RecordTable>
      )}
    </DecisionButtons>
  );
}
