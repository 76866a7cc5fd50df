import { describe, expect, it } from 'vitest';
import { createUser } from '../../../helpers/factories';
import { createTestApp } from '../../../helpers/app';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('the API on $name', ({ open }) => {
  it('answers health and reads the signed-in user from that database', async () => {
    const t = await createTestApp({ database: await open() });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      // An empty database: the matching index (loaded before createTestApp returns) is ready with nothing in it.
      expect(health.json()).toEqual({ status: 'ok', database: t.database.kind, index: { state: 'ready', loaded: 0, total: 0 }, searches: { threads: expect.any(Number), running: 0, queued: 0 }, uploads: { waiting: 0, retrying: 0, failed: 0, oldestWaitingSeconds: null } });
      const user = await createUser(t.database.db, { email: 'pg@lab.test', scope: 'All' });
      const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${t.verifier.issue(user.id)}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: 'pg@lab.test', scope: 'All', licensesAccepted: false });
    } finally {
      await t.close();
    }
  });
});
