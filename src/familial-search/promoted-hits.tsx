import { Link } from 'wouter';
import { routes } from '../app/routes';
import { FamilialSearchActor } from './familial-search-actor';

/** What a promotion did: the pending hits created (each a link to its HitView) and the candidates skipped, with why. */
export function PromotedHits({ orgId }: { orgId: string }) {
  const actor = FamilialSearchActor.useActorRef();
  const promoted = FamilialSearchActor.useSelector((s) => s.context.promoted);
  if (!promoted) return null;
  return (
    <section className="familial-search__promoted" aria-labelledby="familial-search-promoted">
      <h3 id="familial-search-promoted">Promoted</h3>
      <p role="status">
        {promoted.hits.length === 0 ? 'No pending hit was created.' : `${promoted.hits.length} pending ${promoted.hits.length === 1 ? 'hit was' : 'hits were'} created for review.`}
      </p>
      {promoted.hits.length > 0 ? (
        <ul>
          {promoted.hits.map((h) => (
            <li key={h.id}>
              <Link href={routes.HitView.href({ orgId, id: h.id })}>
                Hit with {h.sampleName} ({h.caseNumber})
              </Link>
              : {h.probability}
            </li>
          ))}
        </ul>
      ) : null}
      {promoted.skipped.length > 0 ? (
        <>
          <p>Not promoted:</p>
          <ul>
            {promoted.skipped.map((s) => (
              <li key={s.candidateId}>
                {s.sampleName ?? 'A profile'}: {s.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'promoted.back' })}>
          Back to the candidates
        </button>
      </div>
    </section>
  );
}
