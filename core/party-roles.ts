/**
 * The parts a person plays in a laboratory's case (issue 18), stored by key on involved_parties.role.
 * '' is kept only for parties entered before roles existed.
 */
export const PARTY_ROLES = [
  'victim',
  'suspect',
  'missing-person',
  'relative-of-missing-person',
  'unidentified-person',
  'complainant',
  'witness',
  'elimination',
  'other',
] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];

export const PARTY_ROLE_LABELS: Record<PartyRole, string> = {
  victim: 'Victim',
  suspect: 'Suspect',
  'missing-person': 'Missing person',
  'relative-of-missing-person': 'Relative of a missing person',
  'unidentified-person': 'Unidentified person',
  complainant: 'Complainant',
  witness: 'Witness',
  elimination: 'Elimination (staff/police)',
  other: 'Other',
};

/** A stored role as people read it ('' for a party entered before roles: "No role"). */
export const partyRoleLabel = (role: string): string => PARTY_ROLE_LABELS[role as PartyRole] ?? (role ? role : 'No role');

/** A party as one line names it: "Suspect 1 (Suspect, John Smith)". */
export function describeParty(party: { title: string; role: string; name: string }): string {
  const what = [party.role ? partyRoleLabel(party.role) : '', party.name].filter(Boolean).join(', ');
  return what ? `${party.title} (${what})` : party.title;
}
