import { customType, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** A published reference (title) with its attached file, cited by analyses and hit reports. */
export const citations = pgTable('citations', {
  ...recordColumns,
  title: text('title').notNull(),
  fileName: text('file_name'),
  contentType: text('content_type'),
  fileSize: integer('file_size'),
  content: bytea('content'),
});
