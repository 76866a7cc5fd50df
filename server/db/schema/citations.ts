import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, recordColumns } from './columns';

/** A published reference (title) with its attached file, cited by analyses and hit reports. */
export const citations = pgTable('citations', {
  ...recordColumns,
  title: text('title').notNull(),
  fileName: text('file_name'),
  contentType: text('content_type'),
  fileSize: integer('file_size'),
  content: bytea('content'),
});
