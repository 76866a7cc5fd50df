import { Link } from 'wouter';
import { formatPValue } from '../../core/chance-display';
import type { MixtureSearchAnswer, MixtureSearchCandidate } from '../../core/schemas/mixtures';
import { continuousParts, searchContributorLabels, searchHdContributorLabels } from '../../machines/mixtureSearch.machine';
import { Scientific } from '../admin/analyses/scientific';
import { decimalText, log10Text } from '../analyses/result-format';
import { routes } from '../app/routes';
import { SyntheticLabel } from '../ui/synthetic-label';
import { MixtureSearchActor } from './mixture-search-actor';

const FIGURES = ['LR', 'log10 LR', 'p-value', 'Markers compared'];
/** The continuous model's list: the exact LR from the candidate's own fit, and the scan's at Hd's fit that ranked it. */
const CONTINUOUS_FIGURES = ['LR (full fit)', 'log10 LR', 'Scan log10 LR', 'p-value', 'Markers compared'];
const figuresOf = (answer: MixtureSearchAnswer) => (answer.model === 'continuous' ? CONTINUOUS_FIGURES : FIGURES);

/** A drop-out or other probability as read (0.21), in scientific notation when very small. */
const Probability = ({ value }: { value: number }) => <>{decimalText(value) ?? <Scientific value={value} digits={3} />}</>;

/** One hypothesis's drop-outs, each with whom it is for. */
const DropoutValues = ({ hypothesis, values, labels }: { hypothesis: 'Hp' | 'Hd'; values: readonly number[]; labels: readonly string[] }) => (
  <span className="mixture-search__dropout-hypothesis">
    {hypothesis}:{' '}
    {values.map((d, i) => (
      <span key={i} className="mixture-search__dropout-value">
        {labels[i]} <Probability value={d} />
      </span>
    ))}
  </span>
);

/** The drop-outs each population's ranking used under Hp (candidate, known contributors, unknowns) and under Hd (the unknown in the candidate's place first, issue 30). */
function DropoutUsed({ answer, known }: { answer: MixtureSearchAnswer; known: number }) {
  return (
    <dl className="mixture-search__dropout" aria-label="Drop-out used">
      {answer.populations.map((p) => {
        const n = p.dropout.length;
        return (
          <div key={p.populationId}>
            <dt>
              Drop-out over {p.populationName}
              <SyntheticLabel synthetic={p.synthetic} />
            </dt>
            <dd>
              {p.notEvaluated ? (
                p.notEvaluated
              ) : (
                <>
                  <DropoutValues hypothesis="Hp" values={p.dropout} labels={searchContributorLabels(n, known)} />
                  <DropoutValues hypothesis="Hd" values={p.dropoutHd} labels={searchHdContributorLabels(n, known)} />
                  {p.dropoutHdRule ? <span className="mixture-search__dropout-hypothesis field__hint">{p.dropoutHdRule}</span> : null}
                </>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** One population's figures of a candidate: LR (× 10ⁿ), log10 LR, p-value and the markers compared. */
function PopulationCells({ candidate, populationId, continuous }: { candidate: MixtureSearchCandidate; populationId: string; continuous: boolean }) {
  const r = candidate.results.find((x) => x.populationId === populationId);
  if (!r) return <>{(continuous ? CONTINUOUS_FIGURES : FIGURES).map((f) => <td key={f}>–</td>)}</>;
  return (
    <>
      <td className="calculator__number">
        <Scientific value={r.lr} digits={3} />
      </td>
      <td className="calculator__number">{log10Text(r.log10)}</td>
      {continuous ? <td className="calculator__number">{log10Text(r.continuous?.scanLog10Lr ?? null)}</td> : null}
      <td className="calculator__number">{r.pValue === null ? '–' : formatPValue(r.pValue)}</td>
      <td className="calculator__number">{r.markerCount}</td>
    </>
  );
}

/** The continuous model's fit of the evidence under Hd per population: the parameters every candidate was scanned at. */
function HdFits({ answer }: { answer: MixtureSearchAnswer }) {
  const parts = answer.continuous ? continuousParts(answer.continuous.model) : '';
  return (
    <dl className="mixture-search__dropout" aria-label="Continuous model fitted under Hd">
      {answer.populations.map((p) => (
        <div key={p.populationId}>
          <dt>
            Hd fitted over {p.populationName}
            <SyntheticLabel synthetic={p.synthetic} />
          </dt>
          <dd>
            {p.notEvaluated ?? (p.continuousHd ? `mixture proportions ${p.continuousHd.parameters.mx.map((m) => m.toFixed(3)).join(', ')}; μ ${p.continuousHd.parameters.mu.toFixed(1)} RFU; σ ${p.continuousHd.parameters.sigma.toFixed(3)}; ln L ${p.continuousHd.logLikelihood.toFixed(3)}; ${p.continuousHd.fit.agreeing} of ${p.continuousHd.fit.starts} starts agree${parts ? `; ${parts}` : ''}` : 'No parameters explain the evidence under Hd')}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Summary({ answer }: { answer: MixtureSearchAnswer }) {
  const n = answer.candidates.length;
  const searched = `${answer.searchedProfiles.toLocaleString('en-US')} ${answer.searchedProfiles === 1 ? 'profile' : 'profiles'} searched`;
  if (n === 0) return <p role="status">{searched}: no reference compares enough markers with the evidence.</p>;
  return (
    <p role="status">
      {searched}
      {answer.truncated ? `; showing the first ${n}` : `; ${n} ${n === 1 ? 'candidate' : 'candidates'}`}, ranked by the smallest LR over the populations{answer.model === 'continuous' ? ' (continuous model: the scan at Hd’s fit ranks, the full fit under Hp gives the LR)' : ''}.
    </p>
  );
}

/**
 * The ranked list of a mixture search (issue 17; SmartRank's list): the hypotheses, the drop-out used per population,
 * how many references were searched, then per candidate its rank, sample (a link to the profile), case, sample type
 * and per population the LR, log10 LR, p-value and markers compared.
 */
export function MixtureResults({ orgId }: { orgId: string }) {
  const answer = MixtureSearchActor.useSelector((s) => s.context.answer);
  const known = MixtureSearchActor.useSelector((s) => s.context.request?.knownContributors.length ?? 0);
  if (!answer) return null;
  return (
    <section className="mixture-search__answer" aria-labelledby="mixture-search-answer">
      <h2 id="mixture-search-answer">Candidates</h2>
      <div className="mixture-result__hypotheses" role="group" aria-label="Hypotheses">
        <p>
          <strong>Hp:</strong> {answer.hp}
        </p>
        <p>
          <strong>Hd:</strong> {answer.hd}
        </p>
      </div>
      {answer.model === 'continuous' ? <HdFits answer={answer} /> : <DropoutUsed answer={answer} known={known} />}
      <Summary answer={answer} />
      {answer.candidates.length > 0 ? (
        <div className="calculator__scroll">
          <table className="mixture-search__table">
            <caption className="visually-hidden">Mixture search candidates</caption>
            <thead>
              <tr>
                {['Rank', 'Sample', 'Case', 'Sample type'].map((h) => (
                  <th key={h} scope="col" rowSpan={2}>
                    {h}
                  </th>
                ))}
                {answer.populations.map((p) => (
                  <th key={p.populationId} scope="colgroup" colSpan={figuresOf(answer).length}>
                    {p.populationName}
                    <SyntheticLabel synthetic={p.synthetic} />
                  </th>
                ))}
              </tr>
              <tr>
                {answer.populations.map((p) => figuresOf(answer).map((f) => <th key={`${p.populationId}/${f}`} scope="col">{f}</th>))}
              </tr>
            </thead>
            <tbody>
              {answer.candidates.map((c, i) => (
                <tr key={c.profileId}>
                  <td>{i + 1}</td>
                  <th scope="row">
                    <Link href={routes.ProfilesView.href({ orgId, caseId: c.caseId, sampleid: c.profileId })}>{c.sampleName}</Link>
                  </th>
                  <td>{c.caseNumber}</td>
                  <td>{c.sampleType}</td>
                  {answer.populations.map((p) => (
                    <PopulationCells key={p.populationId} candidate={c} populationId={p.populationId} continuous={answer.model === 'continuous'} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
