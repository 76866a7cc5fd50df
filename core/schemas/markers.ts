import { z } from 'zod';
import { Id } from './common';
import { ListQuery } from './list';
import { REQUIRED, requiredText } from './named-record';

/** The chromosome group of a marker; Amelogenin counts as autosomal (it is typed with the autosomal kits). */
export const MARKER_KINDS = ['Autosomal', 'YStr'] as const;
export type MarkerKind = (typeof MARKER_KINDS)[number];

/** How a kind reads on screen (spec 2.3: "Y-STR", "Autosomal"). */
export const MARKER_KIND_LABELS: Record<MarkerKind, string> = { Autosomal: 'Autosomal', YStr: 'Y-STR' };

export const MULTI_COPY_ONLY_YSTR = 'Only a Y-STR marker can be multi-copy';

/** One other spelling of a marker's name (GENETICS.md: vWA/VWA, Penta D/PENTA_D, DYS385/DYS385a/b). */
export const MarkerAlias = z.string().trim().min(1, 'An alias cannot be empty').max(100, 'At most 100 characters');

/**
 * What the marker form sends. Aliases may differ from each other only in case or separators
 * (PentaD, PENTAD): labs list every spelling they meet; only an exact repeat is refused. Clashes with
 * other markers are the server's check (it sees them all).
 */
export const MarkerInput = z
  .object({
    name: requiredText(100),
    kind: z.enum(MARKER_KINDS, { error: REQUIRED }),
    aliases: z.array(MarkerAlias).max(50, 'At most 50 aliases'),
    multiCopy: z.boolean(),
  })
  .superRefine((marker, ctx) => {
    const seen = new Set([marker.name]);
    marker.aliases.forEach((alias, index) => {
      if (seen.has(alias)) {
        const message = alias === marker.name ? `Alias ${alias} is the marker's own name` : `Alias ${alias} is listed twice`;
        ctx.addIssue({ code: 'custom', path: ['aliases', index], message });
      }
      seen.add(alias);
    });
    if (marker.multiCopy && marker.kind !== 'YStr') ctx.addIssue({ code: 'custom', path: ['multiCopy'], message: MULTI_COPY_ONLY_YSTR });
  });
export type MarkerInput = z.infer<typeof MarkerInput>;

/** A marker as the API returns it. */
export const Marker = z
  .object({
    id: Id,
    name: z.string(),
    kind: z.enum(MARKER_KINDS),
    aliases: z.array(z.string()),
    multiCopy: z.boolean(),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Marker' });
export type Marker = z.infer<typeof Marker>;

/** The marker list's query: the usual paging, sorting and filtering, plus one kind. */
export const MarkerListQuery = ListQuery.extend({ kind: z.enum(MARKER_KINDS).optional() });
export type MarkerListQuery = z.infer<typeof MarkerListQuery>;
