import { asc, eq } from 'drizzle-orm';
import type { AnalysisResult } from '../../../core/schemas/analyses';
import type { Hit, HitHistoryEntry, HitStatus, HitView } from '../../../core/schemas/hits';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { analyses, hitHistory, populations } from '../../db/schema';
import { runAnalysis } from '../analyses/analyze-route';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { HttpError } from '../errors';
import { fourEyesReview } from '../four-eyes';
import { findVisibleHit } from './hit-query';

/**
 * Who recomputes a hit: the hit itself grants sight of the profiles and population it names (the
 * caller was checked against the hit's organization), even when a profile belongs to another
 * organization of the database search. It reads only; nothing is written in its name.
 */
function hitReader(user: AuthenticatedUser): AuthenticatedUser {
  return { ...user, isAdmin: true, scope: 'All', permissions: { Profiles: ['Read'], Populations: ['Read'], Analyses: ['Read'] } };
}

/** The calculator's run of the hit's analysis on its profiles and population, so the view's numbers are the calculator's. */
async function evaluate(db: Db, clock: Clock, user: AuthenticatedUser, hit: Hit): Promise<{ result: AnalysisResult | null; error: string | null }> {
  try {
    const body = { profileIds: hit.profiles.map((p) => p.profileId), populationIds: hit.populationId ? [hit.populationId] : [] };
    return { result: await runAnalysis(db, clock, hitReader(user), hit.analysisId, body), error: null };
  } catch (err) {
    // A deactivated analysis or a removed population: the stored figures stay, the view says why it has no table.
    if (err instanceof HttpError && err.statusCode < 500) return { result: null, error: err.message };
    throw err;
  }
}

/** A hit's transitions in order, each with the reviewer's name as it was then. */
export async function loadHitHistory(db: Db, hitId: string): Promise<HitHistoryEntry[]> {
  const rows = await db.select().from(hitHistory).where(eq(hitHistory.hitId, hitId)).orderBy(asc(hitHistory.at), asc(hitHistory.id));
  return rows.map((r) => ({
    from: r.fromStatus as HitStatus | null,
    to: r.toStatus as HitStatus,
    userId: r.userId,
    userName: r.userName,
    at: r.at.toISOString(),
    comments: r.comments,
    notified: r.notified,
  }));
}

/** HitView (spec 2.4) of a hit the user may see; 404 for another organization's. */
export async function buildHitView(db: Db, clock: Clock, user: AuthenticatedUser, id: string): Promise<HitView> {
  const hit = await findVisibleHit(db, user, id);
  const [analysis] = await db
    .select({ id: analyses.id, name: analyses.name, label: analyses.label, analysisGroupId: analyses.analysisGroupId, kind: analyses.kind, profileKind: analyses.profileKind })
    .from(analyses)
    .where(eq(analyses.id, hit.analysisId));
  const [population] = hit.populationId ? await db.select({ id: populations.id, name: populations.name, source: populations.source }).from(populations).where(eq(populations.id, hit.populationId)) : [];
  const { result, error } = await evaluate(db, clock, user, hit);
  const computed = result?.populations[0];
  const exclusion = result?.exclusion;
  return {
    hit,
    analysis: { ...analysis!, kind: analysis!.kind as HitView['analysis']['kind'], profileKind: analysis!.profileKind as HitView['analysis']['profileKind'] },
    population: population ?? null,
    markers: computed?.markers ?? exclusion?.markers ?? [],
    constants: result?.constants ?? [],
    evaluation: computed
      ? { combinedIndex: computed.combinedIndex, log10: computed.log10, markerCount: null, nonExclusionMarkerCount: null, probability: computed.probability, haplotypeCount: computed.haplotypeCount, conclusion: computed.conclusion ?? null }
      : exclusion
        ? { combinedIndex: null, log10: null, markerCount: exclusion.markerCount, nonExclusionMarkerCount: exclusion.nonExclusionMarkerCount, probability: exclusion.probability, haplotypeCount: null }
        : null,
    evaluationError: error,
    history: await loadHitHistory(db, hit.id),
    fourEyesReview: await fourEyesReview(db, hit.organizationId),
  };
}
