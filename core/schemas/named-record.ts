import { z } from 'zod';
import { Id } from './common';

/** Spec 5: an empty required field fails with exactly this message. */
export const REQUIRED = 'Required';

/** A required text field: trimmed, "Required" when empty, bounded. */
export const requiredText = (max = 200) =>
  z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max, `At most ${max} characters`);

/** A required drop-down: "Required" when nothing is chosen (spec 5), `other` for a value outside the list. */
export const requiredChoice = <const T extends readonly [string, ...string[]]>(values: T, other: string) =>
  z.enum(values, { error: (issue) => (issue.input === '' || issue.input === undefined || issue.input === null ? REQUIRED : other) });

/** Records that are just a name: organizations, case types, sample sources, laboratories (spec 3). */
export const NamedRecord = z
  .object({ id: Id, name: z.string(), version: z.number().int(), createdAt: z.iso.datetime() })
  .meta({ id: 'NamedRecord' });
export type NamedRecord = z.infer<typeof NamedRecord>;

/** What the form sends when adding or renaming a named record. */
export const NamedRecordInput = z.object({ name: requiredText() });
export type NamedRecordInput = z.infer<typeof NamedRecordInput>;
