import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../../server/clock';
import type { Database } from '../../../../server/db/database';
import { createAdapterFactory, deleteExpired } from '../../../../server/identity/adapter';
import { oidcPayloads } from '../../../../server/db/schema';
import { freshDatabase } from './helpers';

/** A clock the test moves by hand. */
function manualClock(start = new Date('2030-01-01T00:00:00Z')) {
  let now = start.getTime();
  const clock: Clock & { advance(seconds: number): void } = {
    now: () => new Date(now),
    advance: (seconds) => {
      now += seconds * 1000;
    },
  };
  return clock;
}

describe('Drizzle adapter for oidc-provider', () => {
  let database: Database;
  const clock = manualClock();
  let adapterFor: ReturnType<typeof createAdapterFactory>;

  beforeAll(async () => {
    database = await freshDatabase();
    adapterFor = createAdapterFactory(database.db, clock);
  });
  afterAll(async () => {
    await database.close();
  });

  it('stores a payload and finds it again by id, per model', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('code-1', { jti: 'code-1', kind: 'AuthorizationCode', grantId: 'g-1', nested: { a: [1, 2] } }, 60);
    expect(await codes.find('code-1')).toEqual({ jti: 'code-1', kind: 'AuthorizationCode', grantId: 'g-1', nested: { a: [1, 2] } });
    // Same id under another model is another record.
    expect(await adapterFor('AccessToken').find('code-1')).toBeUndefined();
    expect(await codes.find('unknown')).toBeUndefined();
  });

  it('replaces the payload on a second upsert of the same id', async () => {
    const sessions = adapterFor('Session');
    await sessions.upsert('s-1', { jti: 's-1', uid: 'uid-1', account: 'a' }, 600);
    await sessions.upsert('s-1', { jti: 's-1', uid: 'uid-1', account: 'b' }, 600);
    expect(await sessions.find('s-1')).toMatchObject({ account: 'b' });
  });

  it('finds sessions by uid and device codes by user code', async () => {
    await adapterFor('Session').upsert('s-2', { jti: 's-2', uid: 'uid-2' }, 600);
    await adapterFor('DeviceCode').upsert('d-1', { jti: 'd-1', userCode: 'ABCD-EFGH' }, 600);
    expect(await adapterFor('Session').findByUid('uid-2')).toMatchObject({ jti: 's-2' });
    expect(await adapterFor('DeviceCode').findByUserCode('ABCD-EFGH')).toMatchObject({ jti: 'd-1' });
    expect(await adapterFor('Session').findByUid('nope')).toBeUndefined();
  });

  it('marks a consumed record with a truthy consumed timestamp, and a new upsert clears it', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('code-2', { jti: 'code-2' }, 60);
    expect((await codes.find('code-2'))?.consumed).toBeUndefined();
    await codes.consume('code-2');
    expect((await codes.find('code-2'))?.consumed).toBe(Math.floor(clock.now().getTime() / 1000));
    await codes.upsert('code-2', { jti: 'code-2' }, 60);
    expect((await codes.find('code-2'))?.consumed).toBeUndefined();
  });

  it('destroys a record', async () => {
    const tokens = adapterFor('RefreshToken');
    await tokens.upsert('rt-1', { jti: 'rt-1' }, 60);
    await tokens.destroy('rt-1');
    expect(await tokens.find('rt-1')).toBeUndefined();
  });

  it('revokes every record of a model issued under a grant, and only those', async () => {
    const refresh = adapterFor('RefreshToken');
    await refresh.upsert('rt-a', { jti: 'rt-a', grantId: 'grant-x' }, 600);
    await refresh.upsert('rt-b', { jti: 'rt-b', grantId: 'grant-x' }, 600);
    await refresh.upsert('rt-c', { jti: 'rt-c', grantId: 'grant-y' }, 600);
    await adapterFor('AccessToken').upsert('at-a', { jti: 'at-a', grantId: 'grant-x' }, 600);
    await refresh.revokeByGrantId('grant-x');
    expect(await refresh.find('rt-a')).toBeUndefined();
    expect(await refresh.find('rt-b')).toBeUndefined();
    expect(await refresh.find('rt-c')).toBeDefined();
    // oidc-provider calls revokeByGrantId on each token model itself.
    expect(await adapterFor('AccessToken').find('at-a')).toBeDefined();
  });

  it('treats a record past its expiry as absent, by every lookup', async () => {
    const sessions = adapterFor('Session');
    await sessions.upsert('s-exp', { jti: 's-exp', uid: 'uid-exp' }, 30);
    clock.advance(29);
    expect(await sessions.find('s-exp')).toBeDefined();
    clock.advance(1);
    expect(await sessions.find('s-exp')).toBeUndefined();
    expect(await sessions.findByUid('uid-exp')).toBeUndefined();
  });

  it('keeps a record without expiresIn until it is destroyed', async () => {
    const grants = adapterFor('Grant');
    await grants.upsert('g-forever', { jti: 'g-forever' });
    clock.advance(10 * 365 * 24 * 3600);
    expect(await grants.find('g-forever')).toBeDefined();
  });

  it('sweeps expired rows out of the table', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('code-old', { jti: 'code-old' }, 10);
    clock.advance(11);
    await deleteExpired(database.db, clock);
    const ids = (await database.db.select({ id: oidcPayloads.id }).from(oidcPayloads)).map((r) => r.id);
    expect(ids).not.toContain('code-old');
    expect(ids).toContain('g-forever');
  });
});
