import type { Hypotheses } from './report-conclusion';

/**
 * The propositions of a formula-table analysis on two or more profiles, as clauses: the same source for an
 * identity analysis (a Y-STR haplotype: the same paternal lineage), else the relationship the analysis is named for
 * against unrelated persons.
 */
export function formulaHypotheses(roles: readonly { role: string; sampleName: string }[], analysis: { name: string; label: string }, identity: boolean, yStr: boolean): Hypotheses {
  const named = roles.map((r) => `${r.sampleName} (${r.role})`);
  const both = named.length === 2 ? `${named[0]} and ${named[1]}` : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  if (identity && yStr) return { labels: ['H1', 'H2'], first: `${both} come from the same man or men of the same paternal lineage`, alternative: `${both} come from unrelated men` };
  if (identity) return { labels: ['H1', 'H2'], first: `${both} come from the same person`, alternative: `${both} come from two unrelated persons` };
  // The analysis's name is the relationship (Full siblings, Parent–child, First cousins); its label details it in the conclusion's Analysis row.
  return { labels: ['H1', 'H2'], first: `${both} are related as ${analysis.name}`, alternative: `${both} are unrelated` };
}
