import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { ConnectionTest, InstanceIdentity, InstanceSettings, InstanceSettingsBody } from '../../../core/schemas/network';
import { ErrorBody } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { instanceSettings } from '../../db/schema';
import { Conflict } from '../../errors';
import { levelOf, readInstanceSettings, shownSettings, type InstanceSettingsRow } from '../../network/instance-settings';
import { openSecret, sealSecret } from '../../network/secret-box';
import { testUpperConnection } from '../../network/upper-instance';
import { auditActor } from '../audit-actor';
import { NETWORK_ADMINISTRATION, NETWORK_PEER } from './access';

const tags = ['network'];
const security = [{ bearer: [] }];

/** The audit row says whether the secret changed, never what it is. */
const audited = (row: InstanceSettingsRow, secretChanged = false) => ({ ...shownSettings(row), ...(secretChanged ? { upperClientSecret: 'changed' } : {}) });

/**
 * This instance in the network (issue 32): its name and level for other instances, its settings (the upper
 * instance's URL and client credentials; the secret write-only) and the "Test connection" of the administration screen.
 */
export const instanceRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; fetch?: typeof fetch }> = async (app, { db, clock, fetch: fetcher }) => {
  app.get(
    '/network/instance',
    {
      config: { access: NETWORK_PEER },
      schema: { tags, summary: 'This instance’s name and level, as another instance (a service client) asks for them', security, response: { 200: InstanceIdentity, 401: ErrorBody, 403: ErrorBody } },
    },
    async () => {
      const row = await readInstanceSettings(db);
      return { name: row.name, level: levelOf(row) };
    },
  );

  app.get(
    '/network/settings',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: { tags, summary: 'This instance’s level, name and upper instance; the upper instance’s secret is never returned', security, response: { 200: InstanceSettings, 401: ErrorBody, 403: ErrorBody } },
    },
    async () => shownSettings(await readInstanceSettings(db)),
  );

  app.put(
    '/network/settings',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: {
        tags,
        summary: 'Set this instance’s level, name and upper instance (the secret: omitted keeps it, null removes it)',
        security,
        body: InstanceSettingsBody,
        response: { 200: InstanceSettings, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const before = await readInstanceSettings(db);
      const { name, level, upperUrl, upperClientId, upperClientSecret, version } = request.body;
      const secret = upperClientSecret === undefined ? before.upperClientSecret : upperClientSecret === null ? null : await sealSecret(db, upperClientSecret);
      const changed = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [row] = await t
          .update(instanceSettings)
          .set({ name, level, upperUrl: upperUrl?.replace(/\/+$/, '') || null, upperClientId: upperClientId || null, upperClientSecret: secret, version: version + 1, updatedAt: clock.now() })
          .where(and(eq(instanceSettings.id, before.id), eq(instanceSettings.version, version)))
          .returning();
        if (!row) throw new Conflict('The instance settings were changed by someone else: reload them and make your change again');
        await appendAudit(t, auditActor(request.user), clock, { entity: 'InstanceSettings', entityId: row.id, action: 'Updated', before: audited(before), after: audited(row, upperClientSecret !== undefined) });
        return row;
      });
      return shownSettings(changed);
    },
  );

  app.post(
    '/network/settings/test-connection',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: {
        tags,
        summary: 'Sign in to the upper instance with the saved client credentials and ask its name and level',
        security,
        response: { 200: ConnectionTest, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => {
      const row = await readInstanceSettings(db);
      if (!row.upperUrl || !row.upperClientId || !row.upperClientSecret) {
        return { ok: false, error: 'Save the upper instance’s address, client id and client secret first' };
      }
      let clientSecret: string;
      try {
        clientSecret = await openSecret(db, row.upperClientSecret);
      } catch {
        return { ok: false, error: 'The saved client secret cannot be read: enter it again' };
      }
      return testUpperConnection({ url: row.upperUrl, clientId: row.upperClientId, clientSecret }, fetcher);
    },
  );
};
