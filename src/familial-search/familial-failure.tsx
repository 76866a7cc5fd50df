import { FamilialSearchActor } from './familial-search-actor';

/** Why the search or the promotion failed, with Try again (the same call) and Dismiss. */
export function FamilialFailure() {
  const actor = FamilialSearchActor.useActorRef();
  const error = FamilialSearchActor.useSelector((s) => s.context.error);
  const call = FamilialSearchActor.useSelector((s) => s.context.failedCall);
  if (!error) return null;
  return (
    <div className="notice notice--negative" role="alert">
      <p>
        {call === 'promote' ? 'The promotion failed' : 'The familial search failed'}: {error.message}
      </p>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'retry' })}>
          Try again
        </button>
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'failure.dismiss' })}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
