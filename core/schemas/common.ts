import { z } from 'zod';

/** The error body every API failure returns (ARCHITECTURE.md "Calls"). */
export const ErrorBody = z.object({ error: z.string(), details: z.unknown().optional() }).meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Id = z.uuid();
