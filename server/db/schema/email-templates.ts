import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';

/** An e-mail the application sends on an event (`hook`, e.g. hit-published); body has {placeholders}. */
export const emailTemplates = pgTable(
  'email_templates',
  { ...recordColumns, hook: text('hook').notNull(), subject: text('subject').notNull(), body: text('body').notNull().default('') },
  (t) => [uniqueIndex('email_templates_hook_unique').on(t.hook)],
);
