import { Link } from 'wouter';
import { isNotWeighed, NOT_WEIGHED_REASON } from '../../core/hit-weighing';
import { can } from '../../core/permissions';
import type { HitView } from '../../core/schemas/hits';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { ActionError, useAction } from './action-state';
import type { HitCalls } from './hits-api';

interface HitWeighingProps {
  orgId: string;
  view: HitView;
  calls: HitCalls;
  onChange(view: HitView): void;
}

/**
 * Why a hit has no number and how to give it one (issue 30): the administrator uploads allele
 * frequencies under Populations, then a reviewer (Hits Publish) weighs the pending identity hit again
 * with the populations its rule uses now; the old figures stay in the history.
 */
export function HitWeighing({ orgId, view, calls, onChange }: HitWeighingProps) {
  const principal = usePrincipal();
  const action = useAction();
  const { hit } = view;
  const notWeighed = isNotWeighed(hit);
  const canWeigh = hit.status === 'pending' && hit.matchKind === 'identity' && hit.figures?.stringency != null && can(principal, 'Hits', 'Publish', { orgId: hit.organizationId });
  if (!notWeighed && !canWeigh) return null;
  const weigh = () => action.run(async () => onChange(await calls.weighAgain(hit.id, { version: hit.version })));
  return (
    <div className="hit-weighing">
      {notWeighed ? (
        <p className="notice notice--warning" role="status">
          This hit is {NOT_WEIGHED_REASON}: it has no likelihood ratio and no chance figure. An administrator uploads allele frequencies under{' '}
          {can(principal, 'Populations', 'Read', { orgId }) ? <Link href={routes.Populations.href({ orgId })}>Populations</Link> : 'Populations'} and makes them available to this organization;
          then weigh the hit again.
        </p>
      ) : null}
      {canWeigh ? (
        <div className="form__actions">
          <button type="button" className="button" disabled={action.busy} onClick={() => void weigh()}>
            Weigh again with the current populations
          </button>
        </div>
      ) : null}
      <ActionError error={action.error} />
    </div>
  );
}
