import type { ReactNode } from 'react';
import { formatExpectedChanceHits, formatSmall } from '../../core/chance-display';
import type { StringencyFigures } from '../../core/schemas/hit-figures';
import { STRINGENCY_LABELS } from '../../core/schemas/search-rules';
import { NOT_WEIGHED_REASON } from '../../core/hit-weighing';

const NOT_WEIGHED = NOT_WEIGHED_REASON.replace(/^not/, 'Not');
import { SyntheticLabel } from '../ui/synthetic-label';

/**
 * A CODIS identity hit's stringency (GENETICS.md "Database search"): the markers compared and
 * mismatched against what the rule allows, the chance that an unrelated profile meets it, and the
 * chance hits expected over the profiles searched. `synthetic`: a synthetic population took part in that chance;
 * not `weighed`: no population computed them (issue 30), so neither chance is shown as a number.
 */
export function HitStringency({ stringency: s, synthetic, weighed }: { stringency: StringencyFigures; synthetic: boolean; weighed: boolean }) {
  const rows: [string, ReactNode][] = [
    ['Stringency', STRINGENCY_LABELS[s.stringency]],
    ['Markers compared', `${s.comparedMarkers} (at least ${s.minMarkers} required)`],
    ['Mismatches', `${s.mismatches} (at most ${s.maxMismatches} allowed)`],
    [
      'Chance an unrelated profile meets it',
      weighed ? (
        <>
          {formatSmall(s.probability)}
          <SyntheticLabel synthetic={synthetic} />
        </>
      ) : (
        NOT_WEIGHED
      ),
    ],
    [
      'Expected chance hits',
      weighed ? (
        <>
          {formatExpectedChanceHits(s.expectedChanceHits, s.searchedProfiles)}
          <SyntheticLabel synthetic={synthetic} />
        </>
      ) : (
        NOT_WEIGHED
      ),
    ],
  ];
  return (
    <section aria-labelledby="hit-stringency">
      <h2 id="hit-stringency">Stringency</h2>
      <dl className="hit-stringency">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
