/** The mixture search's words (mixtureSearch.machine.ts): its input, what it keeps, the events it takes. */
import type { MixtureSearchAnswer, MixtureSearchBody, MixtureSetting } from '../core/schemas/mixtures';
import type { Profile } from '../core/schemas/profiles';
import type { DropoutChoice, MixtureDraft, MixtureSwitch, MixtureTextField } from './analysisRun.machine';
import type { EditorError } from './recordEditor.machine';

/** A mixture analysis the search may use, with its stored parameters (the form starts from them). */
export interface SearchAnalysis {
  id: string;
  name: string;
  mixture: MixtureSetting;
}

/** The evidence profile the search was opened from: its first replicate. Its markers are those a typed profile fills in. */
export interface SearchEvidence {
  id: string;
  sampleName: string;
  caseNumber: string;
  markers: readonly string[];
  /** Whether any replicate of the profile keeps peak heights (the continuous model weighs them). */
  hasHeights?: boolean;
}

/** Which model weighs the candidates (issue 31): allele calls with drop-out and drop-in, or the peak heights. */
export type SearchModel = 'semi-continuous' | 'continuous';
/** The continuous model's parts the search may switch on. */
export type ContinuousPart = 'degradation' | 'backwardStutter' | 'forwardStutter';

/** A further replicate or known contributor: a stored profile (null until chosen), or alleles typed per marker name. */
export type ProfileSlot = { source: 'stored'; profile: Profile | null } | { source: 'typed'; alleles: Readonly<Record<string, string>> };
export type SlotList = 'replicates' | 'knownContributors';

/** The search's own text fields (numbers as typed). */
export type ScopeField = 'limit' | 'minMarkers';

/** Messages by field: `analysis`, `evidence`, `replicates.0`, `knownContributors.1`, `contributors`, `dropout`, `dropout.all`, `dropout.2`, `dropout.hd0` (under Hd), `dropIn`, `theta`, `model`, `populations`, `sampleTypes`, `limit`, `minMarkers`. */
export type FieldErrors = Partial<Record<string, string>>;

/** Why the search failed: the server's message, and its field messages (a 400's `details`) by field, or listed when no field shows them. */
export interface MixtureSearchError extends EditorError {
  fields: FieldErrors;
  other: string[];
}

export interface MixtureSearchInput {
  /** The organization searched: the route's, or `all` (scope All). */
  organizationId: string;
  /** The stored profile the search was opened from (its first replicate); absent, the first replicate is typed. */
  evidence?: SearchEvidence | null;
  /** The markers typed profiles fill in when there is no stored evidence (else the evidence's). */
  markers?: readonly string[];
  /** The active mixture analyses; the first is chosen. */
  analyses: readonly SearchAnalysis[];
  populationIds?: readonly string[];
}

export interface MixtureSearchContext {
  organizationId: string;
  /** The stored first replicate, or null when it is typed (`typedEvidence`). */
  evidence: SearchEvidence | null;
  /** The first replicate's alleles typed per marker, when there is no stored evidence. */
  typedEvidence: Readonly<Record<string, string>>;
  /** The markers a typed profile fills in. */
  markers: readonly string[];
  analyses: readonly SearchAnalysis[];
  analysisId: string | null;
  /** Further replicates; the evidence is the first. */
  replicates: ProfileSlot[];
  knownContributors: ProfileSlot[];
  parameters: MixtureDraft;
  model: SearchModel;
  continuousParts: Record<ContinuousPart, boolean>;
  populationIds: string[];
  sampleTypes: string[];
  limit: string;
  minMarkers: string;
  /** The last search sent: the list on screen answers it. */
  request: MixtureSearchBody | null;
  answer: MixtureSearchAnswer | null;
  error: MixtureSearchError | null;
  /** Set when Run was pressed with something missing: every field then says what. */
  showBlockers: boolean;
}

export type MixtureSearchEvent =
  | { type: 'analysis.choose'; analysisId: string }
  | { type: 'slot.add'; list: SlotList; source: ProfileSlot['source'] }
  | { type: 'slot.choose'; list: SlotList; index: number; profile: Profile | null }
  | { type: 'slot.type'; list: SlotList; index: number; marker: string; text: string }
  | { type: 'slot.remove'; list: SlotList; index: number }
  /** The typed first replicate's alleles at one marker (no stored evidence). */
  | { type: 'evidence.type'; marker: string; text: string }
  /** A parameter as typed: the number of contributors, the drop-out for all, drop-in, θ. */
  | { type: 'parameters.edit'; field: MixtureTextField; value: string }
  | { type: 'parameters.chooseDropout'; dropout: DropoutChoice }
  /** The fixed drop-out of one contributor (candidate, known contributors, unknowns). */
  | { type: 'parameters.editDropout'; contributor: number; value: string }
  /** Hd's fixed drop-out of one contributor (the unknown in the candidate's place, known contributors, unknowns); all blank: LRmix's convention. */
  | { type: 'parameters.editDropoutHd'; contributor: number; value: string }
  /** θ's counting of the candidate under Hd, or the frequencies' normalization. */
  | { type: 'parameters.check'; field: MixtureSwitch; checked: boolean }
  /** Back to the chosen analysis's parameters. */
  | { type: 'parameters.reset' }
  | { type: 'model.choose'; model: SearchModel }
  /** A part of the continuous model on or off (forward stutter brings backward stutter). */
  | { type: 'continuous.check'; part: ContinuousPart; checked: boolean }
  | { type: 'population.toggle'; populationId: string }
  | { type: 'sampleType.toggle'; sampleType: string }
  | { type: 'scope.edit'; field: ScopeField; value: string }
  | { type: 'search.run' }
  /** Stop waiting for the search; its request is aborted and the form stays. */
  | { type: 'search.cancel' }
  /** Send the form again after a failure. */
  | { type: 'search.retry' }
  | { type: 'failure.dismiss' };

export type MixtureSearchTag = 'busy';
