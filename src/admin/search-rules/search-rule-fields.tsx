import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { SAMPLE_TYPES } from '../../../core/schemas/profiles';
import {
  SEARCH_TRIGGERS,
  SEARCH_TRIGGER_LABELS,
  STRINGENCY_LABELS,
  THRESHOLD_KINDS,
  THRESHOLD_KIND_LABELS,
  type SearchRuleAnalysisOption,
  type SearchRuleFormOptions,
  type SearchRuleInput,
} from '../../../core/schemas/search-rules';
import { STRINGENCIES } from '../../../core/schemas/keyboard-search';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { SelectField } from '../../ui/form/select-field';
import { OptionalNumberField } from '../../ui/form/optional-number-field';
import { TextField } from '../../ui/form/text-field';
import { MultiChoiceField, RadioChoiceField, type Choice } from './choice-fields';

const TRIGGER_CHOICES: Choice[] = SEARCH_TRIGGERS.map((t) => ({ value: t, label: SEARCH_TRIGGER_LABELS[t] }));
const SAMPLE_TYPE_CHOICES: Choice[] = SAMPLE_TYPES.map((t) => ({ value: t, label: t }));
const STRINGENCY_OPTIONS = STRINGENCIES.map((s) => ({ value: s, label: STRINGENCY_LABELS[s] }));
const THRESHOLD_KIND_OPTIONS = THRESHOLD_KINDS.map((k) => ({ value: k, label: THRESHOLD_KIND_LABELS[k] }));
const PROFILE_KIND_TEXT = { Autosomal: 'autosomal', YStr: 'Y-STR' } as const;

export const SYNTHETIC_NOTE = 'Not in automatic searches: a rule that runs on approval cannot use the synthetic demo population.';

const analysisLabel = (a: SearchRuleAnalysisOption) =>
  `${a.groupName}: ${a.name} (${a.kind}, ${PROFILE_KIND_TEXT[a.profileKind]}${a.roleCount === 2 ? '' : `, ${a.roleCount} roles`})${a.active ? '' : ' (inactive)'}`;

/** What the chosen analysis means for the rule, said before the server would refuse it. */
function analysisHint(a: SearchRuleAnalysisOption | undefined): string {
  if (!a) return 'The analysis gives the statistics of each hit; an identity stringency needs a computational analysis of autosomal profiles.';
  if (a.roleCount !== 2) return `A database search compares two profiles; this analysis has ${a.roleCount} roles.`;
  if (a.kind === 'Mixture') return 'Weighs each searched reference as a contributor to the evidence (semi-continuous LR with drop-out, drop-in and θ); hits are ranked by LR.';
  return `${a.kind === 'Exclusion' ? 'Counts exclusions' : 'Computes a likelihood ratio'} between two ${PROFILE_KIND_TEXT[a.profileKind]} profiles.`;
}

interface SearchRuleFieldsProps {
  options: SearchRuleFormOptions;
  /** Names of the rule's populations as saved, for one the user may not see among the options. */
  savedPopulations: ReadonlyMap<string, string>;
}

/**
 * The fields of a search rule (ARCHITECTURE.md "Search policy"). The populations offered are those of
 * the chosen analysis's kind; the synthetic demo population cannot be chosen while the rule runs on approval.
 */
export function SearchRuleFields({ options, savedPopulations }: SearchRuleFieldsProps) {
  const [analysisId, trigger, stringency, thresholdKind, populationIds] = useWatch<SearchRuleInput>({
    name: ['analysisId', 'trigger', 'stringency', 'thresholdKind', 'populationIds'],
  }) as [string, SearchRuleInput['trigger'], SearchRuleInput['stringency'], SearchRuleInput['thresholdKind'], string[] | undefined];
  const analysis = options.analyses.find((a) => a.id === analysisId);
  const chosen = useMemo(() => populationIds ?? [], [populationIds]);

  const analysisOptions = options.analyses.map((a) => ({ value: a.id, label: analysisLabel(a) }));
  const populationChoices = useMemo((): Choice[] => {
    const automatic = trigger === 'approval';
    const offered: Choice[] = options.populations
      .filter((p) => !analysis || p.kind === analysis.profileKind || chosen.includes(p.id))
      .map((p) => ({
        value: p.id,
        label: p.synthetic && !/synthetic/i.test(p.name) ? `${p.name} (synthetic)` : p.name,
        ...(p.synthetic && automatic ? { disabled: true, note: SYNTHETIC_NOTE } : {}),
      }));
    const unseen = chosen.filter((id) => !options.populations.some((p) => p.id === id)).map((id) => ({ value: id, label: savedPopulations.get(id) ?? id }));
    return [...offered, ...unseen];
  }, [options.populations, analysis, trigger, chosen, savedPopulations]);

  const ownThreshold = analysis?.threshold;
  const thresholdHint =
    thresholdKind === 'expected-chance-hits'
      ? 'The most chance hits a search of the whole database may expect (e.g. 0.01).'
      : `Empty: the analysis's own threshold${ownThreshold !== undefined && ownThreshold !== null ? ` (${ownThreshold.toLocaleString('en-GB')})` : ''}.`;

  return (
    <>
      <TextField name="name" label="Name" required />
      <CheckboxField name="active" label="Active" hint="An inactive rule never runs." />
      <RadioChoiceField
        name="trigger"
        legend="Runs"
        required
        choices={TRIGGER_CHOICES}
        hint="On approval: each approved profile of a searching sample type is searched at once. On request: only when a user asks (familial search, a ranked list)."
      />
      <MultiChoiceField name="searchingSampleTypes" legend="Searching sample types" required choices={SAMPLE_TYPE_CHOICES} hint="Profiles of these types are searched…" />
      <MultiChoiceField name="searchedSampleTypes" legend="Searched sample types" required choices={SAMPLE_TYPE_CHOICES} hint="…against approved profiles of these types." />
      <SelectField name="analysisId" label="Analysis" required options={analysisOptions} placeholder="Choose an analysis" hint={analysisHint(analysis)} />
      <SelectField
        name="stringency"
        label="Identity stringency"
        options={STRINGENCY_OPTIONS}
        placeholder="None: candidates ranked by the analysis"
        emptyIsNull
        hint="A CODIS identity rule: high needs identical alleles, moderate lets one allele set contain the other, low needs one shared allele per marker."
      />
      {stringency ? (
        <div className="search-rule-form__pair">
          <TextField name="minMarkers" label="Minimum compared markers" type="number" required hint="Fewest markers typed in both profiles." />
          <TextField name="maxMismatches" label="Allowed mismatches" type="number" required hint="Markers that may disagree." />
        </div>
      ) : null}
      <div className="search-rule-form__pair">
        <SelectField name="thresholdKind" label="Threshold kind" required options={THRESHOLD_KIND_OPTIONS} />
        <OptionalNumberField name="threshold" label="Threshold" hint={thresholdHint} />
      </div>
      <MultiChoiceField
        name="populationIds"
        legend="Populations"
        choices={populationChoices}
        hint="None chosen: every population of the organization, never the synthetic one. Each hit keeps the figures of every population, in the order chosen."
      />
    </>
  );
}
