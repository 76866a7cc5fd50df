/** The kinds of an agency's identifier of a person (issue 18), stored by key in involved_parties.identifiers. */
export const IDENTIFIER_KINDS = ['national-id', 'passport', 'arrest-number', 'driver-licence', 'agency-reference', 'other'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

export const IDENTIFIER_KIND_LABELS: Record<IdentifierKind, string> = {
  'national-id': 'National id',
  passport: 'Passport',
  'arrest-number': 'Arrest/booking number',
  'driver-licence': 'Driver licence',
  'agency-reference': 'Agency reference',
  other: 'Other',
};

/** A stored kind as people read it. */
export const identifierKindLabel = (kind: string): string => IDENTIFIER_KIND_LABELS[kind as IdentifierKind] ?? kind;
