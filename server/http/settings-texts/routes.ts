import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody } from '../../../core/schemas/common';
import { STALE_RECORD_MESSAGE } from '../../../core/schemas/list';
import { SETTINGS_TEXT_IDS, SettingsText, SettingsTextInput, type SettingsTextId } from '../../../core/schemas/settings-texts';
import { settings } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { Conflict } from '../errors';
import { sanitizeRichText } from './sanitize-rich-text';

const ById = z.object({ id: z.enum(SETTINGS_TEXT_IDS) });
const tags = ['settings'];

/**
 * The About us and Contact texts (spec 2.6). Every signed-in user reads them; only an administrator
 * with scope All edits them (Settings Edit in core/permissions.ts). The text is rich text, stored
 * only after the allow-list sanitizer, so what any browser later draws was cleaned on the way in.
 */
export const settingsTextsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  const read = async (id: SettingsTextId): Promise<SettingsText> => {
    const [row] = await db.select().from(settings).where(eq(settings.id, id));
    // First start seeds both rows; a missing one reads as an empty, never-saved text.
    return row ? { id, text: row.text, version: row.version } : { id, text: '', version: 0 };
  };

  app.get(
    '/settings/:id',
    {
      // Settings Read: every user with a scope (core/permissions.ts), i.e. every signed-in user.
      config: { access: { entity: 'Settings', verb: 'Read' } },
      schema: { tags, summary: 'The About us or Contact text', params: ById, response: { 200: SettingsText, 400: ErrorBody } },
    },
    async (request) => read(request.params.id),
  );

  app.put(
    '/settings/:id',
    {
      config: { access: { entity: 'Settings', verb: 'Edit' } },
      schema: { tags, summary: 'Save the About us or Contact text', params: ById, body: SettingsTextInput, response: { 200: SettingsText, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { id } = request.params;
      const { version } = request.body;
      const text = sanitizeRichText(request.body.text);
      const rows =
        version === 0
          ? await db.insert(settings).values({ id, text }).onConflictDoNothing().returning()
          : await db
              .update(settings)
              .set({ text, version: sql`${settings.version} + 1`, updatedAt: new Date() })
              .where(and(eq(settings.id, id), eq(settings.version, version)))
              .returning();
      const row = rows[0];
      if (!row) throw new Conflict(STALE_RECORD_MESSAGE);
      return { id, text: row.text, version: row.version };
    },
  );
};
