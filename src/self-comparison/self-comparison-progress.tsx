import { SelfComparisonActor } from './self-comparison-actor';

const n = (x: number) => x.toLocaleString('en');

/** The running comparison: what it does, blocks grouped, pairs verified and found; Cancel. */
export function SelfComparisonProgress() {
  const actor = SelfComparisonActor.useActorRef();
  const job = SelfComparisonActor.useSelector((s) => (s.hasTag('running') ? s.context.job : null));
  const cancelling = SelfComparisonActor.useSelector((s) => s.matches({ running: 'cancelling' }));
  const error = SelfComparisonActor.useSelector((s) => (s.hasTag('running') ? s.context.error : null));
  if (!job) return null;
  const phase = job.phase === 'preparing' ? 'Preparing' : job.phase === 'listing' ? 'Looking up the profiles’ names and cases' : 'Comparing';
  return (
    <section className="self-comparison__progress" aria-label="Progress">
      <p role="status">
        {phase} {job.chemistryName} profiles: {n(job.blocksDone)} of {n(job.blocksTotal)} blocks grouped, {n(job.pairsVerified)} candidate pairs verified, {n(job.pairsFound)} pairs found. Started by {job.startedBy}.
      </p>
      <progress max={Math.max(1, job.blocksTotal)} value={Math.min(job.blocksDone, job.blocksTotal)} aria-label="Blocks grouped" />
      {error ? (
        <p className="notice notice--negative" role="alert">
          {error.message}
        </p>
      ) : null}
      <p>
        <button type="button" className="button button--secondary" disabled={cancelling} onClick={() => actor.send({ type: 'comparison.cancel' })}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </p>
    </section>
  );
}
