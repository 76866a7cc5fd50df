import type { Content, TableCell } from 'pdfmake/interfaces';
import { reportTime, sectionHeading } from './report-frame';
import type { ProfileFacts } from './report-facts';

/**
 * The profiles of a report with what ISO 17025 asks a report to trace (issue 18): per role the sample, its case,
 * kit and sample type, who entered it and who approved it (four-eyes review: the reviewer is a second person),
 * then the involved party each was taken from and the item it came from, with the item's collection.
 */

const bold = (text: string) => ({ text, bold: true });
const table = (widths: (string | number)[], header: string[], body: TableCell[][]): Content => ({
  table: { headerRows: 1, dontBreakRows: true, widths, body: [header.map(bold), ...body] },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 6],
});

/** A sample name or case number, never broken inside (issue 30: "0301-" above "E1" in a narrow column): its column is at least as wide. */
const unbroken = (id: string): TableCell => ({ text: id, noWrap: true });

const byWhen = (name: string | null, at: Date | null) => (name || at ? `${name ?? 'unknown'}${at ? `\n${reportTime(at)}` : ''}` : '—');

/** A stored key as words: 'missing-person' → 'Missing person'. */
const words = (key: string) => (key ? `${key.charAt(0).toUpperCase()}${key.slice(1)}`.replace(/-/g, ' ') : '');

/** A party as one cell: role and name (or its title), then its identifiers. */
function partyText(party: NonNullable<ProfileFacts['party']>): string {
  const who = [words(party.role), party.name || party.title].filter(Boolean).join(': ');
  const ids = party.identifiers.map((i) => `${words(i.kind)} ${i.value}`).join('; ');
  return ids ? `${who}\n${ids}` : who;
}

/** An item as one cell: its id and description, then when, where and by whom it was collected. */
function itemText(item: NonNullable<ProfileFacts['item']>): string {
  const collected = [item.collectedAt ? reportTime(item.collectedAt).slice(0, 10) : '', item.collectionPlace, item.collectedBy ? `by ${item.collectedBy}` : ''].filter(Boolean).join(', ');
  return [`${item.itemId}${item.description ? ` — ${item.description}` : ''}`, collected ? `Collected ${collected}` : 'Collection not recorded'].join('\n');
}

/** The roles' profiles: sample, case, kit, sample type, entered by, approved by; then parties and items where any is linked. */
export function profileFactsContent(roles: readonly { role: string; profileId: string; sampleName: string; caseNumber: string }[], facts: readonly ProfileFacts[]): Content[] {
  const of = new Map(facts.map((f) => [f.profileId, f]));
  const rows = roles.map((r): TableCell[] => {
    const f = of.get(r.profileId);
    const approved = f && f.status === 'approved' ? byWhen(f.reviewedBy, f.reviewedAt) : f ? `not approved (${f.status})` : '—';
    return [r.role, unbroken(r.sampleName), unbroken(r.caseNumber), f?.kit ?? '—', f?.sampleType ?? '—', f ? byWhen(f.enteredBy, f.enteredAt) : '—', approved];
  });
  const content: Content[] = [
    sectionHeading('Profiles', [0, 8, 0, 2]),
    table(['auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto'], ['Role', 'Profile', 'Case', 'Kit', 'Sample type', 'Entered by', 'Approved by'], rows),
  ];
  const linked = roles.flatMap((r) => {
    const f = of.get(r.profileId);
    return f && (f.party || f.item) ? [[r.role, unbroken(r.sampleName), f.party ? partyText(f.party) : '—', f.item ? itemText(f.item) : '—'] as TableCell[]] : [];
  });
  if (linked.length > 0) content.push(sectionHeading('Involved parties and items', [0, 6, 0, 2]), table(['auto', 'auto', '*', '*'], ['Role', 'Profile', 'Involved party', 'Item (collection)'], linked));
  return content;
}
