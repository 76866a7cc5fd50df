import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type StateValue } from 'xstate';
import { MIXTURE_SEARCHED_DEFAULT, type MixtureSearchAnswer, type MixtureSearchBody } from '../../../core/schemas/mixtures';
import { mixtureDraft } from '../../../machines/analysisRun.machine';
import {
  fieldLabel,
  fieldOfPath,
  formErrors,
  initialSearchContext,
  mixtureSearchMachine,
  searchContributorLabels,
  searchRequest,
  toSearchError,
  visibleFieldErrors,
  type MixtureSearchContext,
  type MixtureSearchEvent,
  type MixtureSearchInput,
} from '../../../machines/mixtureSearch.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';
import { MIXTURE_ORG, SEARCH_ANALYSES, SEARCH_ANSWER, SEARCH_EVIDENCE, SEARCH_POPULATIONS, SEARCH_PROFILES } from '../../../stories/mixture-search/mixture-search-fixtures';

const INPUT: MixtureSearchInput = { organizationId: MIXTURE_ORG, evidence: SEARCH_EVIDENCE, analyses: SEARCH_ANALYSES };
const [TWO, THREE] = SEARCH_ANALYSES as [(typeof SEARCH_ANALYSES)[number], (typeof SEARCH_ANALYSES)[number]];
const POPULATION = SEARCH_POPULATIONS[0]!.id;

const at = (value: StateValue, context: Partial<MixtureSearchContext> = {}) => mixtureSearchMachine.resolveState({ value, context: { ...initialSearchContext(INPUT), ...context } });
/** The snapshot after `events`, from editing. */
function after(events: MixtureSearchEvent[], from = at('editing')) {
  return events.reduce((s, e) => transition(mixtureSearchMachine, s, e)[0], from);
}
/** A form that may be sent: one population ticked. */
const ready = () => at('editing', { populationIds: [POPULATION] });

/** An actor with a fake search that records each request and its abort signal. */
function start(search: (body: MixtureSearchBody, signal: AbortSignal) => Promise<MixtureSearchAnswer> = async () => SEARCH_ANSWER, input: MixtureSearchInput = { ...INPUT, populationIds: [POPULATION] }) {
  const sent: MixtureSearchBody[] = [];
  const logic = mixtureSearchMachine.provide({
    actors: { search: fromPromise(async ({ input: body, signal }: { input: MixtureSearchBody; signal: AbortSignal }) => (sent.push(body), search(body, signal))) },
  });
  return { actor: createActor(logic, { input }).start(), sent };
}

/** A 400 as the API client rejects with (src/api/middleware/api-error.ts). */
const badRequest = (error: string, details?: { path: string; message: string }[]) => Object.assign(new Error('POST /api/mixture-search failed with status 400'), { status: 400, serverMessage: error, body: { error, ...(details ? { details } : {}) } });

describe('mixtureSearch machine: the form it starts with', () => {
  it('opens on the evidence with the first mixture analysis chosen, its parameters, the reference sample types, 50 candidates and 8 markers', () => {
    const [s] = initialTransition(mixtureSearchMachine, INPUT);
    expect(s.value).toBe('editing');
    expect(s.context).toMatchObject({
      organizationId: MIXTURE_ORG,
      evidence: SEARCH_EVIDENCE,
      analysisId: TWO.id,
      replicates: [],
      knownContributors: [],
      parameters: mixtureDraft(TWO.mixture),
      populationIds: [],
      sampleTypes: [...MIXTURE_SEARCHED_DEFAULT],
      limit: '50',
      minMarkers: '8',
      answer: null,
      error: null,
      showBlockers: false,
    });
    expect(s.context.parameters).toMatchObject({ contributors: '2', dropout: 'conservative', dropIn: '0.05', theta: '0.01' });
  });

  it('without a mixture analysis starts from the default parameters and asks for an analysis on Run', () => {
    const [s] = initialTransition(mixtureSearchMachine, { ...INPUT, analyses: [], populationIds: [POPULATION] });
    expect(s.context.analysisId).toBeNull();
    expect(s.context.parameters).toEqual(mixtureDraft(null));
    expect(s.can({ type: 'parameters.reset' })).toBe(false);
    const [blocked] = transition(mixtureSearchMachine, s, { type: 'search.run' });
    expect(blocked.value).toBe('editing');
    expect(visibleFieldErrors(blocked.context)).toEqual({ analysis: 'Choose a mixture analysis' });
  });
});

describe('mixtureSearch machine: a typed first replicate (no stored evidence)', () => {
  const TYPED: MixtureSearchInput = { organizationId: MIXTURE_ORG, markers: ['D3S1358', 'vWA', 'SE33'], analyses: SEARCH_ANALYSES, populationIds: [POPULATION] };

  it('starts without evidence, its markers those given, and asks for the first replicate’s alleles on Run', () => {
    const [s] = initialTransition(mixtureSearchMachine, TYPED);
    expect(s.context).toMatchObject({ evidence: null, typedEvidence: {}, markers: ['D3S1358', 'vWA', 'SE33'] });
    const [blocked] = transition(mixtureSearchMachine, s, { type: 'search.run' });
    expect(blocked.value).toBe('editing');
    expect(visibleFieldErrors(blocked.context)).toEqual({ evidence: 'Type the alleles of at least one marker' });
    // With a stored evidence the first replicate is not typed.
    expect(at('editing').can({ type: 'evidence.type', marker: 'vWA', text: '16' })).toBe(false);
    expect(s.can({ type: 'evidence.type', marker: 'TH01', text: '6' })).toBe(false);
  });

  it('sends the typed first replicate as markers, empty markers left out, before the further replicates', async () => {
    const { actor, sent } = start(undefined, TYPED);
    actor.send({ type: 'evidence.type', marker: 'D3S1358', text: '15, 16 17' });
    actor.send({ type: 'evidence.type', marker: 'vWA', text: ' ' });
    actor.send({ type: 'evidence.type', marker: 'SE33', text: '21;22.2' });
    actor.send({ type: 'slot.add', list: 'replicates', source: 'stored' });
    actor.send({ type: 'slot.choose', list: 'replicates', index: 0, profile: SEARCH_PROFILES.evidence });
    actor.send({ type: 'search.run' });
    await waitFor(actor, (s) => s.matches('results'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.replicates).toEqual([
      { markers: [{ marker: 'D3S1358', alleles: ['15', '16', '17'] }, { marker: 'SE33', alleles: ['21', '22.2'] }] },
      { profileId: SEARCH_PROFILES.evidence.id },
    ]);
  });
});

describe('mixtureSearch machine: the analysis and its parameters', () => {
  it('takes another analysis’s parameters when it is chosen, and refuses an analysis it does not offer', () => {
    const s = after([{ type: 'parameters.edit', field: 'theta', value: '0.03' }, { type: 'analysis.choose', analysisId: THREE.id }]);
    expect(s.context.analysisId).toBe(THREE.id);
    expect(s.context.parameters).toEqual(mixtureDraft(THREE.mixture));
    expect(s.can({ type: 'analysis.choose', analysisId: '00000000-0000-4000-8000-000000000000' })).toBe(false);
  });

  it('keeps each parameter as typed, and goes back to the analysis’s own on reset', () => {
    const s = after([
      { type: 'parameters.edit', field: 'dropIn', value: '0.0' },
      { type: 'parameters.edit', field: 'theta', value: '0,02' },
      { type: 'parameters.chooseDropout', dropout: 'maximum-likelihood' },
    ]);
    expect(s.context.parameters).toMatchObject({ dropIn: '0.0', theta: '0,02', dropout: 'maximum-likelihood' });
    expect(after([{ type: 'parameters.reset' }], s).context.parameters).toEqual(mixtureDraft(TWO.mixture));
  });

  it('sends both switches as checked (θ counting the candidate under Hd, normalized frequencies), and reset brings the analysis’s back', () => {
    const s = after([
      { type: 'parameters.check', field: 'personOfInterestTypedUnderHd', checked: false },
      { type: 'parameters.check', field: 'normalizeFrequencies', checked: true },
    ]);
    expect(searchRequest(s.context).setting).toMatchObject({ personOfInterestTypedUnderHd: false, normalizeFrequencies: true });
    expect(after([{ type: 'parameters.reset' }], s).context.parameters).toMatchObject({ personOfInterestTypedUnderHd: TWO.mixture.personOfInterestTypedUnderHd, normalizeFrequencies: TWO.mixture.normalizeFrequencies });
  });

  it('keeps one fixed drop-out per contributor as the number of contributors changes, new ones from the value for all', () => {
    let s = after([
      { type: 'parameters.chooseDropout', dropout: 'each' },
      { type: 'parameters.edit', field: 'dropoutAll', value: '0.1' },
      { type: 'parameters.editDropout', contributor: 1, value: '0.3' },
      { type: 'parameters.edit', field: 'contributors', value: '4' },
    ]);
    expect(s.context.parameters.dropoutEach).toEqual(['', '0.3', '0.1', '0.1']);
    s = after([{ type: 'parameters.edit', field: 'contributors', value: '2' }], s);
    expect(s.context.parameters.dropoutEach).toEqual(['', '0.3']);
    expect(s.can({ type: 'parameters.editDropout', contributor: 2, value: '0.2' })).toBe(false);
    // A number of contributors outside 1–5 stays as typed and leaves the boxes as they are.
    expect(after([{ type: 'parameters.edit', field: 'contributors', value: '9' }], s).context.parameters).toMatchObject({ contributors: '9', dropoutEach: ['', '0.3'] });
  });

  it('names each wrong parameter beside its box as it is typed, before Run', () => {
    const s = after([
      { type: 'parameters.edit', field: 'theta', value: '1.5' },
      { type: 'parameters.edit', field: 'dropIn', value: '' },
      { type: 'parameters.chooseDropout', dropout: 'each' },
      { type: 'parameters.editDropout', contributor: 0, value: '0.2' },
    ]);
    expect(visibleFieldErrors(s.context)).toEqual({ theta: 'A number from 0 to below 1, e.g. 0.05', dropIn: 'Required', 'dropout.1': 'Required' });
  });

  it('needs room under Hp for the candidate and every known contributor', () => {
    const s = after([{ type: 'slot.add', list: 'knownContributors', source: 'stored' }, { type: 'slot.choose', list: 'knownContributors', index: 0, profile: SEARCH_PROFILES.victim }, { type: 'parameters.edit', field: 'contributors', value: '1' }]);
    expect(visibleFieldErrors(s.context).contributors).toBe('At least 2: the candidate and 1 known contributor');
  });

  it('labels the drop-outs in the order candidate, known contributors, unknowns', () => {
    expect(searchContributorLabels(4, 1)).toEqual(['Candidate', 'Known contributor 1', 'Unknown 1', 'Unknown 2']);
  });
});

describe('mixtureSearch machine: replicates and known contributors', () => {
  it('adds stored and typed slots, fills them and removes them', () => {
    let s = after([
      { type: 'slot.add', list: 'replicates', source: 'stored' },
      { type: 'slot.add', list: 'replicates', source: 'typed' },
      { type: 'slot.choose', list: 'replicates', index: 0, profile: SEARCH_PROFILES.replicate },
      { type: 'slot.type', list: 'replicates', index: 1, marker: 'vWA', text: '16, 18' },
      { type: 'slot.add', list: 'knownContributors', source: 'typed' },
      { type: 'slot.type', list: 'knownContributors', index: 0, marker: 'TH01', text: '9.3' },
    ]);
    expect(s.context.replicates).toEqual([
      { source: 'stored', profile: SEARCH_PROFILES.replicate },
      { source: 'typed', alleles: { vWA: '16, 18' } },
    ]);
    expect(s.context.knownContributors).toEqual([{ source: 'typed', alleles: { TH01: '9.3' } }]);
    s = after([{ type: 'slot.remove', list: 'replicates', index: 0 }], s);
    expect(s.context.replicates).toEqual([{ source: 'typed', alleles: { vWA: '16, 18' } }]);
  });

  it('chooses only into a stored slot, types only into a typed slot at one of the evidence’s markers, removes only what exists', () => {
    const s = after([{ type: 'slot.add', list: 'replicates', source: 'stored' }, { type: 'slot.add', list: 'knownContributors', source: 'typed' }]);
    expect(s.can({ type: 'slot.type', list: 'replicates', index: 0, marker: 'vWA', text: '16' })).toBe(false);
    expect(s.can({ type: 'slot.choose', list: 'knownContributors', index: 0, profile: SEARCH_PROFILES.victim })).toBe(false);
    expect(s.can({ type: 'slot.type', list: 'knownContributors', index: 0, marker: 'Penta E', text: '5' })).toBe(false);
    expect(s.can({ type: 'slot.choose', list: 'replicates', index: 1, profile: SEARCH_PROFILES.replicate })).toBe(false);
    expect(s.can({ type: 'slot.remove', list: 'knownContributors', index: 1 })).toBe(false);
    expect(s.can({ type: 'slot.remove', list: 'knownContributors', index: -1 })).toBe(false);
  });

  it('takes at most 10 replicates in all (the evidence and 9 more) and 4 known contributors', () => {
    const nine = after(Array.from({ length: 9 }, () => ({ type: 'slot.add', list: 'replicates', source: 'typed' }) as const));
    expect(nine.context.replicates).toHaveLength(9);
    expect(nine.can({ type: 'slot.add', list: 'replicates', source: 'stored' })).toBe(false);
    const four = after(Array.from({ length: 4 }, () => ({ type: 'slot.add', list: 'knownContributors', source: 'stored' }) as const));
    expect(four.can({ type: 'slot.add', list: 'knownContributors', source: 'typed' })).toBe(false);
  });

  it('asks for each empty slot, and for each profile once', () => {
    const s = after(
      [
        { type: 'analysis.choose', analysisId: THREE.id },
        { type: 'slot.add', list: 'replicates', source: 'stored' },
        { type: 'slot.add', list: 'replicates', source: 'typed' },
        { type: 'slot.type', list: 'replicates', index: 1, marker: 'vWA', text: ' , ' },
        { type: 'slot.add', list: 'replicates', source: 'stored' },
        { type: 'slot.choose', list: 'replicates', index: 2, profile: SEARCH_PROFILES.evidence },
        { type: 'slot.add', list: 'knownContributors', source: 'stored' },
        { type: 'slot.choose', list: 'knownContributors', index: 0, profile: SEARCH_PROFILES.replicate },
        { type: 'slot.add', list: 'knownContributors', source: 'stored' },
        { type: 'slot.choose', list: 'knownContributors', index: 1, profile: SEARCH_PROFILES.replicate },
      ],
      ready(),
    );
    expect(formErrors(s.context)).toEqual({
      'replicates.0': 'Choose a profile, or remove it',
      'replicates.1': 'Type the alleles of at least one marker, or remove it',
      'replicates.2': 'Already chosen as the evidence',
      'knownContributors.1': 'Already chosen as Known contributor 1',
    });
  });
});

describe('mixtureSearch machine: populations, sample types and the list', () => {
  it('ticks and unticks populations and sample types, and keeps the numbers as typed', () => {
    const s = after([
      { type: 'population.toggle', populationId: POPULATION },
      { type: 'sampleType.toggle', sampleType: 'Arrestee' },
      { type: 'sampleType.toggle', sampleType: 'Elimination, Known' },
      { type: 'scope.edit', field: 'limit', value: '20' },
      { type: 'scope.edit', field: 'minMarkers', value: '10' },
    ]);
    expect(s.context).toMatchObject({ populationIds: [POPULATION], sampleTypes: ['Convicted Offender', 'Suspect, Known', 'Elimination, Known'], limit: '20', minMarkers: '10' });
    expect(after([{ type: 'population.toggle', populationId: POPULATION }], s).context.populationIds).toEqual([]);
  });

  it('says on Run what is missing at each field, and sends nothing', () => {
    const s = after([
      { type: 'sampleType.toggle', sampleType: 'Convicted Offender' },
      { type: 'sampleType.toggle', sampleType: 'Arrestee' },
      { type: 'sampleType.toggle', sampleType: 'Suspect, Known' },
      { type: 'scope.edit', field: 'limit', value: '501' },
      { type: 'scope.edit', field: 'minMarkers', value: '2.5' },
    ]);
    expect(visibleFieldErrors(s.context)).toEqual({});
    const [blocked] = transition(mixtureSearchMachine, s, { type: 'search.run' });
    expect(blocked.value).toBe('editing');
    expect(blocked.context.showBlockers).toBe(true);
    expect(blocked.context.request).toBeNull();
    expect(visibleFieldErrors(blocked.context)).toEqual({
      populations: 'Choose at least one population',
      sampleTypes: 'Choose at least one sample type',
      limit: 'A whole number from 1 to 500',
      minMarkers: 'A whole number from 1 to 100',
    });
  });

  it('weighs at most 10 populations at once', () => {
    const ids = Array.from({ length: 11 }, (_, i) => `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`);
    expect(formErrors({ ...ready().context, populationIds: ids }).populations).toBe('At most 10 populations at once');
  });
});

describe('mixtureSearch machine: the search', () => {
  it('sends the evidence first, the further replicates and known contributors (typed markers with alleles only), the parameters as typed and the scope', async () => {
    const { actor, sent } = start();
    for (const e of [
      { type: 'analysis.choose', analysisId: THREE.id },
      { type: 'slot.add', list: 'replicates', source: 'stored' },
      { type: 'slot.choose', list: 'replicates', index: 0, profile: SEARCH_PROFILES.replicate },
      { type: 'slot.add', list: 'replicates', source: 'typed' },
      { type: 'slot.type', list: 'replicates', index: 1, marker: 'vWA', text: '16, 18;19' },
      { type: 'slot.type', list: 'replicates', index: 1, marker: 'TH01', text: '  ' },
      { type: 'slot.add', list: 'knownContributors', source: 'stored' },
      { type: 'slot.choose', list: 'knownContributors', index: 0, profile: SEARCH_PROFILES.victim },
      { type: 'parameters.chooseDropout', dropout: 'all' },
      { type: 'parameters.edit', field: 'dropoutAll', value: '0,1' },
      { type: 'scope.edit', field: 'limit', value: ' 20 ' },
      { type: 'search.run' },
    ] satisfies MixtureSearchEvent[])
      actor.send(e);
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('results'));
    expect(actor.getSnapshot().context.answer).toEqual(SEARCH_ANSWER);
    expect(sent).toEqual([
      {
        organizationId: MIXTURE_ORG,
        analysisId: THREE.id,
        replicates: [{ profileId: SEARCH_EVIDENCE.id }, { profileId: SEARCH_PROFILES.replicate.id }, { markers: [{ marker: 'vWA', alleles: ['16', '18', '19'] }] }],
        knownContributors: [{ profileId: SEARCH_PROFILES.victim.id }],
        setting: { contributors: 3, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false },
        populationIds: [POPULATION],
        searchedSampleTypes: [...MIXTURE_SEARCHED_DEFAULT],
        minMarkers: 8,
        limit: 20,
      },
    ]);
    expect(actor.getSnapshot().context.request).toEqual(sent[0]);
  });

  it('sends one fixed drop-out per contributor in order', () => {
    const s = after([{ type: 'parameters.chooseDropout', dropout: 'each' }, { type: 'parameters.editDropout', contributor: 0, value: '0.2' }, { type: 'parameters.editDropout', contributor: 1, value: '0.35' }], ready());
    expect(searchRequest(s.context).setting?.dropout).toEqual({ mode: 'fixed', values: [0.2, 0.35] });
  });

  // Issue 30: Hd's drop-outs, as in the calculator; all blank keeps LRmix's convention (the server's default).
  it('sends Hd’s drop-outs when typed, each of them needed; none typed sends Hp’s only', () => {
    const each = after([{ type: 'parameters.chooseDropout', dropout: 'each' }, { type: 'parameters.editDropout', contributor: 0, value: '0.1' }, { type: 'parameters.editDropout', contributor: 1, value: '0.3' }], ready());
    expect(searchRequest(each.context).setting?.dropout).toEqual({ mode: 'fixed', values: [0.1, 0.3] });
    const half = after([{ type: 'parameters.editDropoutHd', contributor: 0, value: '0.25' }], each);
    expect(visibleFieldErrors(half.context)).toEqual({ 'dropout.hd1': 'Required' });
    expect(formErrors(half.context)).toMatchObject({ 'dropout.hd1': 'Required' });
    const both = after([{ type: 'parameters.editDropoutHd', contributor: 1, value: '0,35' }], half);
    expect(formErrors(both.context)).toEqual({});
    expect(searchRequest(both.context).setting?.dropout).toEqual({ mode: 'fixed', values: [0.1, 0.3], hdValues: [0.25, 0.35] });
    expect(both.can({ type: 'parameters.editDropoutHd', contributor: 2, value: '0.2' })).toBe(false);
    expect(fieldLabel('dropout.hd0', both.context)).toBe('Drop-out under Hd of Unknown in the candidate’s place');
  });

  it('takes no change and no second search while one runs', () => {
    const running = at('running', { populationIds: [POPULATION] });
    expect(running.can({ type: 'search.run' })).toBe(false);
    expect(running.can({ type: 'population.toggle', populationId: POPULATION })).toBe(false);
    expect(running.can({ type: 'parameters.edit', field: 'theta', value: '0.02' })).toBe(false);
    expect(running.can({ type: 'slot.add', list: 'replicates', source: 'typed' })).toBe(false);
    expect(running.can({ type: 'search.retry' })).toBe(false);
    expect(at('editing').can({ type: 'search.cancel' })).toBe(false);
  });

  it('cancels a running search: back to the form as typed, the request aborted and its late answer ignored', async () => {
    let aborted = false;
    let answerLate: (a: MixtureSearchAnswer) => void = () => undefined;
    const { actor } = start(
      (_, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => (aborted = true));
          answerLate = resolve;
        }),
    );
    actor.send({ type: 'scope.edit', field: 'limit', value: '25' });
    actor.send({ type: 'search.run' });
    actor.send({ type: 'search.cancel' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(aborted).toBe(true);
    answerLate(SEARCH_ANSWER);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(actor.getSnapshot()).toMatchObject({ value: 'editing', context: { answer: null, limit: '25' } });
  });

  it('drops the list when the form changes, so the numbers shown always belong to it', () => {
    const results = at('results', { populationIds: [POPULATION], answer: SEARCH_ANSWER });
    const [edited] = transition(mixtureSearchMachine, results, { type: 'sampleType.toggle', sampleType: 'Arrestee' });
    expect(edited.value).toBe('editing');
    expect(edited.context.answer).toBeNull();
    expect(results.can({ type: 'search.run' })).toBe(true);
  });
});

describe('mixtureSearch machine: failures', () => {
  it('puts each of a 400’s field messages at its field, lists the others, and keeps every value typed', async () => {
    const { actor } = start(async () => {
      throw badRequest('Hp holds the candidate and 1 known contributor(s): the number of contributors must be at least 2.', [
        { path: '/setting/contributors', message: 'Too few' },
        { path: '/populationIds/0', message: 'Autosomal only' },
        { path: '/replicates/1/markers/0/marker', message: 'Too small: expected string to have >=1 characters' },
        { path: '/organizationId', message: 'Invalid input' },
      ]);
    });
    actor.send({ type: 'slot.add', list: 'replicates', source: 'typed' });
    actor.send({ type: 'slot.type', list: 'replicates', index: 0, marker: 'FGA', text: '21, 24' });
    actor.send({ type: 'search.run' });
    await waitFor(actor, (s) => s.matches('failed'));
    const { context } = actor.getSnapshot();
    expect(context.error).toEqual({
      status: 400,
      message: 'Hp holds the candidate and 1 known contributor(s): the number of contributors must be at least 2.',
      fields: { contributors: 'Too few', populations: 'Autosomal only', 'replicates.0': 'Too small: expected string to have >=1 characters' },
      other: ['/organizationId: Invalid input'],
    });
    expect(visibleFieldErrors(context)).toMatchObject({ contributors: 'Too few', populations: 'Autosomal only' });
    expect(context.replicates).toEqual([{ source: 'typed', alleles: { FGA: '21, 24' } }]);
    expect(context.populationIds).toEqual([POPULATION]);
  });

  it('tries the same search again, or dismisses the failure back to the form', async () => {
    let calls = 0;
    const { actor, sent } = start(async () => {
      if (++calls === 1) throw Object.assign(new Error('no response'), { status: 0 });
      return SEARCH_ANSWER;
    });
    actor.send({ type: 'search.run' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE, fields: {}, other: [] });
    expect(actor.getSnapshot().can({ type: 'search.retry' })).toBe(true);
    actor.send({ type: 'search.retry' });
    await waitFor(actor, (s) => s.matches('results'));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(actor.getSnapshot().context.error).toBeNull();

    const failed = at('failed', { error: toSearchError(badRequest('Nope'), 'conservative') });
    const [dismissed] = transition(mixtureSearchMachine, failed, { type: 'failure.dismiss' });
    expect(dismissed).toMatchObject({ value: 'editing', context: { error: null } });
    expect(at('editing').can({ type: 'failure.dismiss' })).toBe(false);
  });

  it('clears the failure and its field messages once the form changes', () => {
    const failed = at('failed', { populationIds: [POPULATION], error: toSearchError(badRequest('Bad', [{ path: '/setting/theta', message: 'Below 1' }]), 'conservative') });
    expect(visibleFieldErrors(failed.context)).toEqual({ theta: 'Below 1' });
    const [edited] = transition(mixtureSearchMachine, failed, { type: 'parameters.edit', field: 'theta', value: '0.02' });
    expect(edited.value).toBe('editing');
    expect(edited.context.error).toBeNull();
    expect(visibleFieldErrors(edited.context)).toEqual({});
  });

  it('reads the field a 400’s path names', () => {
    expect(fieldOfPath('/analysisId', 'conservative')).toBe('analysis');
    expect(fieldOfPath('/replicates', 'conservative')).toBe('evidence');
    expect(fieldOfPath('/replicates/0/profileId', 'conservative')).toBe('evidence');
    expect(fieldOfPath('/replicates/3/markers/0/alleles', 'conservative')).toBe('replicates.2');
    expect(fieldOfPath('/knownContributors/1', 'conservative')).toBe('knownContributors.1');
    expect(fieldOfPath('/knownContributors', 'conservative')).toBeNull();
    expect(fieldOfPath('/setting/dropIn', 'conservative')).toBe('dropIn');
    expect(fieldOfPath('/setting/dropout/values/2', 'each')).toBe('dropout.2');
    expect(fieldOfPath('/setting/dropout/values/0', 'all')).toBe('dropout.all');
    expect(fieldOfPath('/setting/dropout/hdValues/1', 'each')).toBe('dropout.hd1');
    expect(fieldOfPath('/setting/dropout', 'maximum-likelihood')).toBe('dropout');
    expect(fieldOfPath('/setting/personOfInterestTypedUnderHd', 'all')).toBeNull();
    expect(fieldOfPath('/searchedSampleTypes/4', 'all')).toBe('sampleTypes');
    expect(fieldOfPath('/limit', 'all')).toBe('limit');
    expect(fieldOfPath('/minMarkers', 'all')).toBe('minMarkers');
    expect(fieldOfPath('', 'all')).toBeNull();
  });
});
