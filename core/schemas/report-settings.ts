import { z } from 'zod';
import { VERBAL_SCALE_KEYS } from '../verbal-scale';
import { Versioned } from './list';

/** The verbal scale an organization's hit and calculator reports state each LR with (issue 18; core/verbal-scale.ts). */
export const VerbalScaleKey = z.enum(VERBAL_SCALE_KEYS, { error: `Choose one of ${VERBAL_SCALE_KEYS.join(', ')}` });

/** An organization's report settings, with the organization's version (a change carries it: stale → 409). */
export const ReportSettings = z.object({ verbalScale: VerbalScaleKey, version: z.number().int() }).meta({ id: 'ReportSettings' });
export type ReportSettings = z.infer<typeof ReportSettings>;

export const ReportSettingsChange = z.object({ verbalScale: VerbalScaleKey }).extend(Versioned.shape).meta({ id: 'ReportSettingsChange' });
export type ReportSettingsChange = z.infer<typeof ReportSettingsChange>;
