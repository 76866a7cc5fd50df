import { z } from 'zod';
import { Id } from './common';

/** The figures of one analysis over one population (null: exclusion analyses use none), as a hit and a keyboard search show them. */
export const AnalysisFigures = z.object({
  analysisId: Id,
  analysisName: z.string(),
  populationId: Id.nullable(),
  populationName: z.string().nullable(),
  combinedIndex: z.number().nullable(),
  markerCount: z.number().int(),
  nonExclusionMarkerCount: z.number().int().nullable(),
  /** Spec 4 "Hit probability display" (core/probability-display.ts). */
  probability: z.string(),
});
