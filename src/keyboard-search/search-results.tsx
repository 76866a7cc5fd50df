import { Link } from 'wouter';
import { formatExpectedChanceHits, formatPValue, SYNTHETIC_LABEL } from '../../core/chance-display';
import type { KeyboardSearchAnswer, KeyboardSearchCandidate } from '../../core/schemas/keyboard-search';
import { routes } from '../app/routes';

const STRINGENCY_LABEL = { true: 'Met', false: 'Not met' } as const;

/** One analysis per population of a candidate: its probability text (spec 4) and whether a database search would record it. */
function CandidateResults({ candidate }: { candidate: KeyboardSearchCandidate }) {
  if (candidate.results.length === 0) return <span className="field__hint">No analysis result</span>;
  return (
    <ul className="keyboard-search__results">
      {candidate.results.map((r) => (
        <li key={`${r.analysisId}/${r.populationId ?? ''}`}>
          <strong>{r.analysisName}</strong>
          {r.populationName ? ` over ${r.populationName}` : ''}: {r.probability}
          {r.pValue !== null ? ` (${formatPValue(r.pValue)})` : ''}
          {r.overThreshold ? <span className="keyboard-search__threshold"> (over the threshold)</span> : null}
          {r.synthetic ? <span className="synthetic-label"> {SYNTHETIC_LABEL}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The keyboard search's answer (spec 2.6 "all possible hits"): each candidate with its sample (a link
 * to the profile), case, whether it meets the stringency, the markers compared and mismatched, and
 * its figures per analysis and population; how many more were found than are listed.
 */
export function SearchResults({ orgId, answer }: { orgId: string; answer: KeyboardSearchAnswer }) {
  const { candidates, notShown, chance, searchedProfiles, queuePosition } = answer;
  return (
    <section className="keyboard-search__answer" aria-labelledby="keyboard-search-answer">
      <h2 id="keyboard-search-answer">Possible hits</h2>
      <p role="status">
        {candidates.length === 0
          ? 'No stored profile matches this profile under these settings.'
          : `${candidates.length.toLocaleString('en-US')} ${candidates.length === 1 ? 'candidate' : 'candidates'}${notShown > 0 ? ', the strongest' : ''}.`}
      </p>
      {queuePosition > 0 ? <p className="notice">{`The search waited for a search thread: it was number ${queuePosition.toLocaleString('en-US')} in the queue.`}</p> : null}
      {notShown > 0 ? <p className="notice">{`${notShown.toLocaleString('en-US')} more ${notShown === 1 ? 'candidate' : 'candidates'} not shown`}</p> : null}
      {chance.length > 0 ? (
        <ul className="keyboard-search__chance" aria-label="Expected chance hits">
          {chance.map((c) => (
            <li key={c.populationId}>
              Stringency over {c.populationName}: {formatExpectedChanceHits(c.expectedChanceHits, searchedProfiles)}
              {c.synthetic ? <span className="synthetic-label"> {SYNTHETIC_LABEL}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {candidates.length > 0 ? (
        <div className="keyboard-search__scroll">
          <table className="keyboard-search__table">
            <caption className="visually-hidden">Candidates</caption>
            <thead>
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">Case</th>
                <th scope="col">Stringency</th>
                <th scope="col">Compared markers</th>
                <th scope="col">Mismatches</th>
                <th scope="col">Likelihood per analysis and population</th>
              </tr>
            </thead>
            <tbody>
              {candidates.map((c) => (
                <tr key={c.profileId}>
                  <th scope="row">
                    <Link href={routes.ProfilesView.href({ orgId, caseId: c.caseId, sampleid: c.profileId })}>{c.sampleName}</Link>
                  </th>
                  <td>{c.caseNumber}</td>
                  <td>{STRINGENCY_LABEL[`${c.stringencyMet}`]}</td>
                  <td>{c.comparedMarkers}</td>
                  <td>{c.mismatches}</td>
                  <td>
                    <CandidateResults candidate={c} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
