import { Link } from 'wouter';
import { formatPValue, formatSmall, SYNTHETIC_LABEL } from '../../core/chance-display';
import type { FamilialCandidate, FamilialSearchAnswer } from '../../core/schemas/familial-search';
import { routes } from '../app/routes';
import { FamilialSearchActor } from './familial-search-actor';

/** One population's figures for a candidate: the LR as spec 4 prints it, the p-value, the chance candidates expected at this rank. */
function PopulationCell({ candidate, populationId }: { candidate: FamilialCandidate; populationId: string }) {
  const p = candidate.populations.find((x) => x.populationId === populationId);
  if (!p) return <td>—</td>;
  return (
    <td>
      <span className="familial-search__lr">{p.probability}</span>
      {p.pValue !== null ? <span className="familial-search__chance">{formatPValue(p.pValue)}</span> : null}
      {p.expectedChanceCandidates !== null ? <span className="familial-search__chance">{formatSmall(p.expectedChanceCandidates)} expected by chance</span> : null}
    </td>
  );
}

function Summary({ answer }: { answer: FamilialSearchAnswer }) {
  const n = answer.candidates.length;
  return (
    <p role="status">
      {answer.analysis.name} over {answer.searchedProfiles.toLocaleString('en-US')} searched {answer.searchedProfiles === 1 ? 'profile' : 'profiles'}:{' '}
      {n === 0 ? 'no candidate (every profile is excluded or compares too few markers).' : `the ${n === 1 ? 'strongest candidate' : `${n} strongest candidates`}, ranked by the smallest LR over the populations.`}{' '}
      “Expected by chance” is how many unrelated profiles of those searched would score at least that LR.
    </p>
  );
}

/**
 * The ranked candidate list of a familial search (issue 12): rank, profile (a link), case, sample
 * type, per population the LR, p-value and the chance candidates expected at that rank; candidates
 * are ticked and promoted to pending hits. Ticks and the promotion are the machine's to allow.
 */
export function FamilialResults({ orgId }: { orgId: string }) {
  const actor = FamilialSearchActor.useActorRef();
  const answer = FamilialSearchActor.useSelector((s) => s.context.answer);
  const selected = FamilialSearchActor.useSelector((s) => s.context.selected);
  const promoting = FamilialSearchActor.useSelector((s) => s.matches('promoting'));
  const canPromote = FamilialSearchActor.useSelector((s) => s.can({ type: 'promote' }));
  // Which rows may be ticked now, as one text so the list re-renders only when it changes.
  const tickable = FamilialSearchActor.useSelector((s) => (s.context.answer?.candidates ?? []).filter((c) => s.can({ type: 'candidate.toggle', candidateId: c.profileId })).map((c) => c.profileId).join(' '));
  if (!answer) return null;
  const allowed = new Set(tickable.split(' '));
  return (
    <section className="familial-search__answer" aria-labelledby="familial-search-answer">
      <h3 id="familial-search-answer">Candidates</h3>
      <Summary answer={answer} />
      {answer.candidates.length > 0 ? (
        <>
          <div className="familial-search__scroll">
            <table className="familial-search__table">
              <caption className="visually-hidden">Familial search candidates</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Promote</span>
                  </th>
                  <th scope="col">Rank</th>
                  <th scope="col">Profile</th>
                  <th scope="col">Case</th>
                  <th scope="col">Sample type</th>
                  {answer.populations.map((p) => (
                    <th key={p.id} scope="col">
                      {p.name}
                      {p.synthetic ? <span className="synthetic-label">{SYNTHETIC_LABEL}</span> : null}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {answer.candidates.map((c) => (
                  <tr key={c.profileId}>
                    <td>
                      {c.alreadyHit ? (
                        <span className="familial-search__hit">Hit</span>
                      ) : (
                        <input
                          type="checkbox"
                          aria-label={`Promote ${c.sampleName}`}
                          checked={selected.includes(c.profileId)}
                          disabled={promoting || !allowed.has(c.profileId)}
                          onChange={() => actor.send({ type: 'candidate.toggle', candidateId: c.profileId })}
                        />
                      )}
                    </td>
                    <td>{c.rank}</td>
                    <th scope="row">
                      <Link href={routes.ProfilesView.href({ orgId, caseId: c.caseId, sampleid: c.profileId })}>{c.sampleName}</Link>
                    </th>
                    <td>{c.caseNumber}</td>
                    <td>{c.sampleType}</td>
                    {answer.populations.map((p) => (
                      <PopulationCell key={p.id} candidate={c} populationId={p.id} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="form__actions">
            <button type="button" className="button button--primary" disabled={!canPromote} onClick={() => actor.send({ type: 'promote' })}>
              {promoting ? 'Promoting…' : `Promote to pending hits${selected.length > 0 ? ` (${selected.length})` : ''}`}
            </button>
            {selected.length > 0 && !promoting ? (
              <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'candidates.clear' })}>
                Untick all
              </button>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
