import { z } from 'zod';
import { RICH_TEXT_MAX_LENGTH } from '../rich-text';
import { REQUIRED, requiredText } from './named-record';

/** The editable texts of spec 2.6 (Settings: an id and text), keyed as the settings table stores them. */
export const SETTINGS_TEXT_IDS = ['About', 'Contact'] as const;
export type SettingsTextId = (typeof SETTINGS_TEXT_IDS)[number];

/** One text; `version` 0 means it was never saved (an empty text). */
export const SettingsText = z
  .object({ id: z.enum(SETTINGS_TEXT_IDS), text: z.string(), version: z.number().int().min(0) })
  .meta({ id: 'SettingsText' });
export type SettingsText = z.infer<typeof SettingsText>;

/** Saving a text: rich text (the server sanitizes it) and the version read. */
export const SettingsTextInput = z.object({
  text: z.string().max(RICH_TEXT_MAX_LENGTH, `At most ${RICH_TEXT_MAX_LENGTH} characters`),
  version: z.number().int().min(0),
});
export type SettingsTextInput = z.infer<typeof SettingsTextInput>;

/** The Contact page's form. It is validated, then goes nowhere (spec 2.6: saving a message has no effect). */
export const ContactMessage = z.object({
  name: requiredText(200),
  email: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).pipe(z.email('Enter an e-mail address such as name@lab.org')),
  message: requiredText(5000),
});
export type ContactMessage = z.infer<typeof ContactMessage>;

/** What the Contact form says after "sending": honestly, that nothing was stored or sent. */
export const CONTACT_NO_EFFECT_MESSAGE =
  'Thank you. Your message was not stored or sent: this form has no effect in Locus; contact your laboratory administrator directly.';
