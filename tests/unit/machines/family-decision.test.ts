import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { Family } from '../../../core/schemas/families';
import { DRAFT } from '../../../stories/cases/family-fixtures';
import { availableFamilyActions, decidedFamily, familyDecision, type DecidedFamily, type FamilyDecisionRequest } from '../../../machines/familyDecision.machine';

const FAMILY: Family = DRAFT;
const edit = { edit: true };

function start(family: Family, transition: (r: FamilyDecisionRequest) => Promise<DecidedFamily>, reload: () => Promise<DecidedFamily> = async () => decidedFamily(family)) {
  const sent: FamilyDecisionRequest[] = [];
  const logic = familyDecision.withCalls({ transition: (r) => (sent.push(r), transition(r)), reload });
  return { actor: createActor(logic, { input: { record: decidedFamily(family), allowed: edit } }).start(), sent };
}

describe('availableFamilyActions', () => {
  it('offers Activate and Delete on a draft, Deactivate on an active family, no Delete once it found hits, nothing without Cases Edit', () => {
    expect(availableFamilyActions(FAMILY, edit)).toEqual(['activate', 'delete']);
    expect(availableFamilyActions({ ...FAMILY, status: 'active' }, edit)).toEqual(['deactivate']);
    expect(availableFamilyActions({ ...FAMILY, status: 'inactive', hitCount: 2 }, edit)).toEqual(['activate']);
    expect(availableFamilyActions(FAMILY, { edit: false })).toEqual([]);
  });
});

describe('familyDecision', () => {
  it('activates only after confirmation and keeps what the search found', async () => {
    const { actor, sent } = start(FAMILY, async ({ family }) => ({ ...family, status: 'active', version: 2, hitCount: 1, lastSearch: { searchedProfiles: 31, hitsAdded: 1 } }));
    actor.send({ type: 'decision.start', decision: { action: 'activate' } });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(sent).toEqual([]);
    actor.send({ type: 'decision.confirm' });
    const done = await waitFor(actor, (s) => s.matches('idle'), { timeout: 1000 });
    expect(sent.map((r) => [r.action, r.family.version])).toEqual([['activate', 1]]);
    expect(done.context.record).toMatchObject({ status: 'active', lastSearch: { searchedProfiles: 31, hitsAdded: 1 } });
    expect(done.context.lastDone).toBe('Activated');
    expect(done.can({ type: 'decision.start', decision: { action: 'delete' } })).toBe(false);
  });

  it('refuses a decision the status does not allow', () => {
    const { actor } = start({ ...FAMILY, status: 'active' }, async ({ family }) => family);
    actor.send({ type: 'decision.start', decision: { action: 'delete' } });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('a refused delete (409: the family found hits) offers only to reload it, which shows it as it is', async () => {
    const withHits = decidedFamily({ ...FAMILY, status: 'inactive', hitCount: 2, version: 4 });
    const { actor } = start(FAMILY, async () => Promise.reject({ status: 409, serverMessage: 'The family found 2 hits: it stays, deactivated, so they remain traceable.' }), async () => withHits);
    actor.send({ type: 'decision.start', decision: { action: 'delete' } });
    actor.send({ type: 'decision.confirm' });
    const conflict = await waitFor(actor, (s) => s.matches('conflict'), { timeout: 1000 });
    expect(conflict.context.error?.message).toMatch(/found 2 hits/);
    actor.send({ type: 'record.reload' });
    const reloaded = await waitFor(actor, (s) => s.matches('idle'), { timeout: 1000 });
    expect(reloaded.context.record.hitCount).toBe(2);
  });

  it('keeps a failed activation (the matcher still loading, 503) to try again', async () => {
    let tries = 0;
    const { actor } = start(FAMILY, async ({ family }) => (++tries === 1 ? Promise.reject({ status: 503, serverMessage: 'The matcher is still loading.' }) : { ...family, status: 'active', lastSearch: { searchedProfiles: 0, hitsAdded: 0 } }));
    actor.send({ type: 'decision.start', decision: { action: 'activate' } });
    actor.send({ type: 'decision.confirm' });
    const failed = await waitFor(actor, (s) => s.matches('failed'), { timeout: 1000 });
    expect(failed.context.error).toEqual({ status: 503, message: 'The matcher is still loading.' });
    actor.send({ type: 'decision.retry' });
    expect((await waitFor(actor, (s) => s.matches('idle'), { timeout: 1000 })).context.record.status).toBe('active');
  });
});
