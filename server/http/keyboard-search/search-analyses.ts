import { inArray } from 'drizzle-orm';
import type { KeyboardSearchAnalysis } from '../../../core/schemas/keyboard-search';
import type { Db } from '../../db/database';
import { analyses } from '../../db/schema';
import { isSameSourceAnalysis, keyboardSearchAnalyses } from '../../matching/keyboard-analyses';
import { loadActiveAnalyses } from '../../matching/load-search-inputs';
import type { ProfileKind } from '../../matching/types';

/** The analyses the keyboard search form offers for a kind, by name, each saying whether a search runs it when none is named. */
export async function listKeyboardSearchAnalyses(db: Db, kind: ProfileKind): Promise<KeyboardSearchAnalysis[]> {
  const offered = keyboardSearchAnalyses(await loadActiveAnalyses(db, kind), kind);
  if (offered.length === 0) return [];
  const labels = new Map((await db.select({ id: analyses.id, label: analyses.label }).from(analyses).where(inArray(analyses.id, offered.map((a) => a.id)))).map((r) => [r.id, r.label]));
  return offered
    .map((a) => ({ id: a.id, name: a.name, label: labels.get(a.id) ?? '', kind: a.kind as KeyboardSearchAnalysis['kind'], byDefault: isSameSourceAnalysis(a) }))
    .sort((a, b) => Number(b.byDefault) - Number(a.byDefault) || a.name.localeCompare(b.name));
}
