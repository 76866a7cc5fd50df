import { z } from 'zod';
import { Id } from './common';
import { NamedRecordInput } from './named-record';

/** Analysis groups (spec 2.7, 3): a named group of analyses, shown together in the calculator. */

/** A row of the Analysis groups table: Name and how many analyses it holds. */
export const AnalysisGroupSummary = z
  .object({ id: Id, name: z.string(), analysisCount: z.number().int().min(0), version: z.number().int() })
  .meta({ id: 'AnalysisGroupSummary' });
export type AnalysisGroupSummary = z.infer<typeof AnalysisGroupSummary>;

export const AnalysisGroup = z
  .object({ id: Id, name: z.string(), version: z.number().int(), createdAt: z.iso.datetime() })
  .meta({ id: 'AnalysisGroup' });
export type AnalysisGroup = z.infer<typeof AnalysisGroup>;

/** A group is only its name. */
export const AnalysisGroupInput = NamedRecordInput;
export type AnalysisGroupInput = z.infer<typeof AnalysisGroupInput>;

/** An analysis as its group's table lists it (the analysis form itself comes with the genetics issue). */
export const AnalysisSummary = z
  .object({ id: Id, analysisGroupId: Id, name: z.string(), label: z.string(), kind: z.string(), active: z.boolean() })
  .meta({ id: 'AnalysisSummary' });
export type AnalysisSummary = z.infer<typeof AnalysisSummary>;
