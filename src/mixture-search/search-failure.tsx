import { MixtureSearchActor } from './mixture-search-actor';

/** Why the search failed (the server's message and the details no field shows), with Try again and Dismiss; the form keeps every value. */
export function SearchFailure() {
  const actor = MixtureSearchActor.useActorRef();
  const error = MixtureSearchActor.useSelector((s) => (s.matches('failed') ? s.context.error : null));
  if (!error) return null;
  return (
    <div className="notice notice--negative" role="alert">
      <p>The mixture search failed: {error.message}</p>
      {error.other.length > 0 ? (
        <ul>
          {error.other.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
      ) : null}
      {Object.keys(error.fields).length > 0 ? <p>Each field the server refused says why.</p> : null}
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'search.retry' })}>
          Try again
        </button>
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'failure.dismiss' })}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
