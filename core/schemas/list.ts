import { z } from 'zod';

/** Largest page a list call returns; tables page through the rest (ARCHITECTURE.md "Calls"). */
export const MAX_PAGE_SIZE = 500;

/**
 * Query of every `{ items, count }` list call: zero-based page, page size, `sort` as `field:asc|desc`,
 * `search` (free text over the searchable columns) and `filter` (JSON `{ field: text }`, contains, case-insensitive).
 */
export const ListQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  sort: z
    .string()
    .regex(/^[A-Za-z]+:(asc|desc)$/, 'Sort as field:asc or field:desc')
    .optional(),
  search: z.string().max(200).optional(),
  filter: z.string().max(2000).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;
/** What a client sends (query parameters are strings on the wire; the server coerces). */
export interface ListQueryInput {
  page?: number;
  pageSize?: number;
  sort?: string;
  search?: string;
  filter?: string;
}

/**
 * The `{ items, count }` body of a list call (spec 3: "A list call returns items and a count"). `estimated`
 * (present only when true): `count` is the database's estimate, not a count of every row (long lists; the
 * table says "about").
 */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), count: z.number().int().min(0), estimated: z.literal(true).optional() });
export interface ListResult<T> {
  items: T[];
  count: number;
  estimated?: true;
}

/** Body of every update: the version read, so a concurrent edit is refused instead of lost. */
export const Versioned = z.object({ version: z.number().int().min(1) });

/** Shown when a write carries a version older than the stored one (HTTP 409). */
export const STALE_RECORD_MESSAGE = 'This record was changed by someone else since you opened it. Reload it and apply your changes again.';
