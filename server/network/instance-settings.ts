import { eq } from 'drizzle-orm';
import { INSTANCE_LEVELS, type InstanceLevel, type InstanceSettings } from '../../core/schemas/network';
import type { Db } from '../db/database';
import { instanceSettings } from '../db/schema';

const ROW_ID = 'instance';
export type InstanceSettingsRow = typeof instanceSettings.$inferSelect;

/** The one settings row, created with defaults (a Local instance with no name and no upper instance) on first read. */
export async function readInstanceSettings(db: Db): Promise<InstanceSettingsRow> {
  const [row] = await db.select().from(instanceSettings).where(eq(instanceSettings.id, ROW_ID));
  if (row) return row;
  await db.insert(instanceSettings).values({ id: ROW_ID }).onConflictDoNothing();
  return (await db.select().from(instanceSettings).where(eq(instanceSettings.id, ROW_ID)))[0]!;
}

export const levelOf = (row: InstanceSettingsRow): InstanceLevel =>
  (INSTANCE_LEVELS as readonly string[]).includes(row.level) ? (row.level as InstanceLevel) : 'Local';

/** The settings as any answer shows them: never the upper instance's secret, only whether one is kept. */
export const shownSettings = (row: InstanceSettingsRow): InstanceSettings => ({
  name: row.name,
  level: levelOf(row),
  upperUrl: row.upperUrl,
  upperClientId: row.upperClientId,
  upperClientSecretSet: row.upperClientSecret !== null,
  version: row.version,
});
