import { useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { formatExpectedChanceHits, formatPValue } from '../../core/chance-display';
import { isNotWeighed, NOT_WEIGHED_REASON } from '../../core/hit-weighing';
import { reportedChance } from '../../core/reported-chance';
import { CONTINUOUS_MIXTURE } from '../../core/schemas/analyses';
import { MATCH_KIND_LABELS } from '../../core/schemas/hit-figures';
import { HIT_STATUS_LABELS, type HitView } from '../../core/schemas/hits';
import { formatIndex, MarkerTable } from '../analyses/analysis-result-view';
import { calculatorApi } from '../analyses/calculator-api';
import { ConstantsUsed } from '../analyses/constants-used';
import { ParentageConclusionNotice } from '../analyses/parentage-conclusion';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { formatDateTime } from '../cases/format';
import { SyntheticLabel } from '../ui/synthetic-label';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { HitContinuous, type CalculatorPlace } from './hit-continuous';
import { HitDownloadButton } from './hit-download-button';
import { HitHistory } from './hit-history';
import { HitPedigreeMarkers, isPedigreeHit } from './hit-pedigree';
import { HitPopulations } from './hit-populations';
import { HitReviewPanel } from './hit-review-panel';
import { HitStringency } from './hit-stringency';
import { HitWeighing } from './hit-weighing';
import { hitsApi, type HitCalls } from './hits-api';
import '../analyses/calculator.css';
import './hits.css';

/** The search rule that found the hit and what the hit says of its profiles; nothing for a hit recorded before search rules. */
function HitFoundBy({ hit }: { hit: HitView['hit'] }) {
  if (hit.searchRuleName === null && hit.figures === null && hit.familyId === null) return null;
  return (
    <p className="hit-found-by">
      {hit.familyId !== null ? (
        <>Found by the search of the missing-person family <strong>{hit.familyName ?? '(since deleted)'}</strong></>
      ) : hit.searchRuleName === null ? (
        'Found by a search rule since deleted'
      ) : (
        <>Found by the search rule <strong>{hit.searchRuleName}</strong></>
      )}
      {' · '}
      {MATCH_KIND_LABELS[hit.matchKind]}
    </p>
  );
}

/** The figures of the hit: what was used and what came out (spec 2.4, 4). */
function HitFigures({ orgId, view }: { orgId: string; view: HitView }) {
  const { hit, analysis, population } = view;
  const synthetic = <SyntheticLabel synthetic={reportedChance(hit).populationSynthetic} />;
  const figures: [string, ReactNode][] = [
    ['Status', HIT_STATUS_LABELS[hit.status]],
    ['Found', formatDateTime(hit.date)],
    ['Analysis', <Link key="a" href={routes.Analyses.href({ orgId, analysisGroupId: analysis.analysisGroupId, analysisId: analysis.id })}>{analysis.name}</Link>],
    ['Population', population ? <>{`${population.name}${population.source ? ` (source: ${population.source})` : ''}`}{synthetic}</> : isNotWeighed(hit) ? `None: ${NOT_WEIGHED_REASON}` : 'None (exclusion analysis)'],
    ...(hit.combinedIndex !== null ? ([[hit.matchKind === 'mixture' ? 'Likelihood ratio' : 'Combined index', formatIndex(hit.combinedIndex)]] as [string, string][]) : []),
    ['Probability', <>{hit.probability}{population ? synthetic : null}</>],
  ];
  return (
    <dl className="calculator__figures hit-figures">
      {figures.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What the hit reports beside its probability (issue 12): the expected chance hits at the rule's threshold and its p-value. */
function HitChance({ hit }: { hit: HitView['hit'] }) {
  const { populationSynthetic, searchedProfiles, chanceSynthetic } = reportedChance(hit);
  const { expectedChanceHits, pValue } = hit;
  const expected = expectedChanceHits !== null && searchedProfiles !== null;
  if (!expected && pValue === null) return null;
  return (
    <p className="hit-chance">
      {expected ? (
        <span>
          Expected chance hits: {formatExpectedChanceHits(expectedChanceHits, searchedProfiles)}
          <SyntheticLabel synthetic={chanceSynthetic} />
        </span>
      ) : null}
      {pValue !== null ? (
        <span>
          p-value: {formatPValue(pValue)}
          <SyntheticLabel synthetic={populationSynthetic} />
        </span>
      ) : null}
    </p>
  );
}

/** The hit's profiles in role order, each leading to its profile view. */
function HitProfiles({ orgId, view }: { orgId: string; view: HitView }) {
  return (
    <ul className="hit-profiles" aria-label="Profiles of the hit">
      {view.hit.profiles.map((p) => (
        <li key={p.profileId}>
          {p.role}: <Link href={routes.ProfilesView.href({ orgId, caseId: p.caseId, sampleid: p.profileId })}>{p.sampleName}</Link> (case {p.caseNumber})
        </li>
      ))}
    </ul>
  );
}

/** A continuous hit's figures and the calculator opened on its stain and candidate (issue 31); nothing for another hit. */
function HitContinuousFigures({ orgId, view }: { orgId: string; view: HitView }) {
  const api = useApi();
  const { figures, profiles } = view.hit;
  const stain = profiles.find((p) => p.role === 'Evidence') ?? profiles[0];
  const candidate = profiles.find((p) => p !== stain);
  if (!figures || !stain || !candidate) return null;
  const findCalculator = async (): Promise<CalculatorPlace | null> => {
    const groups = await calculatorApi(api).analysesByGroup();
    const found = groups.flatMap((g) => g.analyses).find((a) => a.kind === CONTINUOUS_MIXTURE && a.active);
    return found ? { analysisGroupId: found.analysisGroupId, analysisId: found.id } : null;
  };
  return <HitContinuous orgId={orgId} populations={figures.populations} prefill={{ stainId: stain.profileId, candidateId: candidate.profileId }} findCalculator={findCalculator} />;
}

/**
 * HitView (spec 2.4 `/{orgId}/hits/{id}`): the figures, the profiles side by side per marker with
 * each marker's genotypes, pattern, formula (KaTeX) and value as the calculator computes them, the
 * constants used, the review, the PDF download and the history. A pedigree hit (a family's) shows
 * per marker both likelihoods, the LR and the verdict, its mutation models and the markers needing a mutation.
 */
function HitViewScreen({ orgId, view, calls, onChange }: { orgId: string; view: HitView; calls: HitCalls; onChange(view: HitView): void }) {
  const roles = view.hit.profiles.map((p) => `${p.role}: ${p.sampleName}`);
  const exclusion = view.analysis.kind === 'Exclusion';
  const { figures } = view.hit;
  return (
    <>
      <HitFoundBy hit={view.hit} />
      <HitFigures orgId={orgId} view={view} />
      <HitChance hit={view.hit} />
      <ParentageConclusionNotice conclusion={view.evaluation?.conclusion} />
      {figures ? <HitPopulations populations={figures.populations} matchKind={view.hit.matchKind} skipped={figures.skippedPopulations} /> : null}
      <HitContinuousFigures orgId={orgId} view={view} />
      {figures?.stringency ? <HitStringency stringency={figures.stringency} synthetic={figures.populations.some((p) => p.synthetic)} weighed={!isNotWeighed(view.hit)} /> : null}
      <HitWeighing orgId={orgId} view={view} calls={calls} onChange={onChange} />
      <HitProfiles orgId={orgId} view={view} />
      {/* Keyed by id only: the review machine keeps its own copy of the hit across decisions. */}
      <HitReviewPanel key={view.hit.id} view={view} calls={calls} onChange={onChange} />
      <div className="form__actions">
        <HitDownloadButton hitId={view.hit.id} calls={calls} />
      </div>
      {view.evaluationError ? (
        <p className="notice notice--warning" role="status">
          The per-marker figures cannot be shown: {view.evaluationError}. The stored figures above stand.
        </p>
      ) : null}
      {isPedigreeHit(view) ? (
        <section aria-label="Markers">
          <h2>Markers</h2>
          <HitPedigreeMarkers view={view} roles={roles} />
        </section>
      ) : view.evaluationError ? null : (
        <section aria-label="Markers">
          <h2>Markers</h2>
          <MarkerTable caption={`Markers${view.population ? ` over ${view.population.name}` : ''}`} roles={roles} markers={view.markers} exclusion={exclusion} className="hit-table--stacked hit-markers" />
        </section>
      )}
      <ConstantsUsed constants={view.constants} />
      <HitHistory history={view.history} />
    </>
  );
}

/** The HitView route: reads the hit, titles the page with its analysis and profiles. */
export function HitViewPage({ orgId, id, title }: { orgId: string; id: string; title: string }) {
  const api = useApi();
  const calls = useMemo(() => hitsApi(api), [api]);
  const loaded = useLoaded(id, () => calls.view(id));
  const heading = loaded.status === 'loaded' ? `${loaded.value.analysis.name}: ${loaded.value.hit.profiles.map((p) => p.sampleName).join(' – ')}` : title;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{heading}</h1>
      </div>
      <LoadState loaded={loaded} missing="This hit no longer exists.">
        {(view) => <HitViewScreen orgId={orgId} view={view} calls={calls} onChange={loaded.replace} />}
      </LoadState>
    </section>
  );
}
