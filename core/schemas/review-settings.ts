import { z } from 'zod';

/** An organization's review settings (issue 18): four-eyes review of profiles and hits, on by default. */
export const ReviewSettings = z
  .object({
    /** Who entered or imported a profile may not approve it, nor publish a hit resting on it. */
    fourEyesReview: z.boolean(),
  })
  .meta({ id: 'ReviewSettings' });
export type ReviewSettings = z.infer<typeof ReviewSettings>;
