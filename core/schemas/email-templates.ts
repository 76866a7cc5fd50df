import { z } from 'zod';
import { Id } from './common';
import { requiredChoice, requiredText } from './named-record';

/**
 * E-mail templates (spec 2.7, 3): one per hook, the event that sends it. Subject and body are plain
 * text with named placeholders written `{name}`; each hook fills only the placeholders it offers.
 */

/** What a hook fills into one placeholder, and the sample the preview shows. */
export interface Placeholder {
  name: string;
  description: string;
  sample: string;
}

interface HookSpec {
  /** When Locus sends it, for the form. */
  description: string;
  placeholders: readonly Placeholder[];
}

export const EMAIL_HOOKS = {
  'hit-published': {
    description: 'Sent to the users assigned to a case, who receive notifications, when a hit is published with Notify.',
    placeholders: [
      { name: 'recipientName', description: 'full name of the user the e-mail goes to', sample: 'Ada Lovelace' },
      { name: 'caseId', description: 'the case id', sample: 'CASE-2026-0042' },
      { name: 'hitUrl', description: 'link to the hit in Locus', sample: 'https://locus.example.org/all/hits/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed' },
      { name: 'analysis', description: 'name of the analysis that found the hit', sample: 'Paternity' },
      { name: 'probability', description: 'the hit probability as the hit lists show it', sample: '99.99% (1.25e+6)' },
      { name: 'publishedBy', description: 'full name of the reviewer who published it', sample: 'Grace Hopper' },
      { name: 'comments', description: 'the reviewer\u2019s comments', sample: 'Confirmed against the reference sample.' },
    ],
  },
  'hit-retracted': {
    description: 'Sent, when a published hit is reset to pending, to the users its publication notified, with who retracted it and why.',
    placeholders: [
      { name: 'recipientName', description: 'full name of the user the e-mail goes to', sample: 'Ada Lovelace' },
      { name: 'caseId', description: 'the case id', sample: 'CASE-2026-0042' },
      { name: 'hitUrl', description: 'link to the hit in Locus', sample: 'https://locus.example.org/all/hits/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed' },
      { name: 'profiles', description: 'the hit\u2019s profiles: role and sample name', sample: 'Evidence: STAIN-12, Reference: REF-3' },
      { name: 'analysis', description: 'name of the analysis that found the hit', sample: 'Identity' },
      { name: 'probability', description: 'the hit probability as the hit lists show it', sample: '99.99% (1.25e+6)' },
      { name: 'retractedBy', description: 'full name of the reviewer who reset the published hit', sample: 'Grace Hopper' },
      { name: 'reason', description: 'why the hit was retracted', sample: 'The reference was collected from the wrong person.' },
    ],
  },
  'password-link': {
    description: 'Sent to a user when an administrator sends them a link to set their password.',
    placeholders: [
      { name: 'recipientName', description: 'full name of the user the e-mail goes to', sample: 'Ada Lovelace' },
      { name: 'link', description: 'the one-time link that sets the password', sample: 'https://locus.example.org/password/9f86d081884c7d65' },
      { name: 'expiresAt', description: 'when the link stops working', sample: '2026-11-23 14:30 UTC' },
    ],
  },
} as const satisfies Record<string, HookSpec>;

export type EmailHook = keyof typeof EMAIL_HOOKS;
export const EMAIL_HOOK_NAMES = Object.keys(EMAIL_HOOKS) as [EmailHook, ...EmailHook[]];

/** `{name}`: a letter, then letters or digits. Anything else in braces is plain text. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The placeholder names `text` uses, each once, in order of first use. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

/** Fills each `{name}` that `values` has; a placeholder without a value stays as written. */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/** The sample values of a hook's placeholders, for the preview. */
export function sampleValues(hook: EmailHook): Record<string, string> {
  return Object.fromEntries(EMAIL_HOOKS[hook].placeholders.map((p) => [p.name, p.sample]));
}

const braced = (names: readonly string[]) => names.map((n) => `{${n}}`).join(', ');

/**
 * Why `text` cannot be sent on `hook`: it uses placeholders the hook does not fill. The message names
 * them and what the hook offers; null when every placeholder is known.
 */
export function unknownPlaceholderMessage(hook: EmailHook, text: string): string | null {
  const offered: readonly string[] = EMAIL_HOOKS[hook].placeholders.map((p) => p.name);
  const unknown = placeholdersIn(text).filter((name) => !offered.includes(name));
  if (unknown.length === 0) return null;
  const what = unknown.length === 1 ? 'Unknown placeholder' : 'Unknown placeholders';
  return `${what} ${braced(unknown)}; ${hook} offers ${braced(offered)}`;
}

const Hook = requiredChoice(EMAIL_HOOK_NAMES, `Locus sends e-mails only on ${EMAIL_HOOK_NAMES.join(', ')}`);

/** A row of the Email templates table (spec 2.7: Name (the hook), Subject). */
export const EmailTemplateSummary = z
  .object({ id: Id, hook: z.string(), subject: z.string(), version: z.number().int() })
  .meta({ id: 'EmailTemplateSummary' });
export type EmailTemplateSummary = z.infer<typeof EmailTemplateSummary>;

export const EmailTemplate = z
  .object({ id: Id, hook: z.string(), subject: z.string(), body: z.string(), version: z.number().int(), updatedAt: z.iso.datetime() })
  .meta({ id: 'EmailTemplate' });
export type EmailTemplate = z.infer<typeof EmailTemplate>;

/** What adding or saving a template sends. The server checks placeholders itself (to name them in the 400). */
export const EmailTemplateInput = z.object({ hook: Hook, subject: requiredText(200), body: requiredText(20_000) });
export type EmailTemplateInput = z.infer<typeof EmailTemplateInput>;

/** The form's schema: the input plus the placeholder check, shown on the field that uses the unknown one. */
export const EmailTemplateFormInput = EmailTemplateInput.superRefine((value, ctx) => {
  for (const field of ['subject', 'body'] as const) {
    const message = unknownPlaceholderMessage(value.hook, value[field]);
    if (message) ctx.addIssue({ code: 'custom', path: [field], message });
  }
});

/** The templates a new installation starts with, one per hook (seeded at first start). */
export const DEFAULT_EMAIL_TEMPLATES: readonly EmailTemplateInput[] = [
  {
    hook: 'hit-published',
    subject: 'Hit published in case {caseId}',
    body: [
      'Dear {recipientName},',
      '',
      '{publishedBy} published a hit in case {caseId}.',
      '',
      'Analysis: {analysis}',
      'Probability: {probability}',
      'Comments: {comments}',
      '',
      'Open the hit in Locus: {hitUrl}',
      '',
      'You receive this e-mail because you are assigned to the case and receive notifications.',
    ].join('\n'),
  },
  {
    hook: 'hit-retracted',
    subject: 'Hit retracted in case {caseId}',
    body: [
      'Dear {recipientName},',
      '',
      '{retractedBy} retracted a hit in case {caseId} that you were notified of: it is no longer published and waits for review again.',
      '',
      'Profiles: {profiles}',
      'Analysis: {analysis}',
      'Probability: {probability}',
      'Reason: {reason}',
      '',
      'Do not rely on the earlier notification. Open the hit in Locus: {hitUrl}',
      '',
      'You receive this e-mail because you were notified when the hit was published.',
    ].join('\n'),
  },
  {
    hook: 'password-link',
    subject: 'Set your Locus password',
    body: [
      'Dear {recipientName},',
      '',
      'Use this link to set your Locus password: {link}',
      '',
      'The link works once and expires at {expiresAt}.',
      'If you did not expect this e-mail, ignore it: your account stays as it is.',
    ].join('\n'),
  },
];
