import { z } from 'zod';
import { Id } from './common';

/** A background database search of an approved profile (ARCHITECTURE.md "Matching"), as the screens show its progress. */
export const SearchJob = z
  .object({
    id: Id,
    profileId: Id,
    sampleName: z.string(),
    organizationId: Id,
    status: z.enum(['queued', 'running', 'done', 'failed']),
    done: z.number().int(),
    total: z.number().int(),
    hits: z.number().int(),
    error: z.string().nullable(),
    queuedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'SearchJob' });
export type SearchJob = z.infer<typeof SearchJob>;

export const SearchJobList = z.object({ items: z.array(SearchJob), count: z.number().int() }).meta({ id: 'SearchJobList' });
