import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { MixtureSearchAnswer, MixtureSearchBody } from '../core/schemas/mixtures';
import { MAX_FURTHER_REPLICATES, MAX_KNOWN_CONTRIBUTORS, mixtureDraft, withContributors } from './mixtureDraft';
import { formErrors, initialSearchContext, searchRequest, toSearchError } from './mixtureSearch.form';
import type { MixtureSearchContext, MixtureSearchEvent, MixtureSearchInput, MixtureSearchTag, ProfileSlot, SlotList } from './mixtureSearch.types';

/**
 * The mixture search (issue 17; SmartRank's list): the evidence profile the page was opened from (or, opened from the
 * keyboard search, a first replicate typed per marker), further replicates
 * and known contributors (stored profiles or alleles typed per marker), a mixture analysis whose parameters prefill
 * the form, the populations, the searched sample types and how many candidates; Run checks the form (validating),
 * sends `POST mixture-search` (running, cancellable) and shows the ranked list or the failure, each of the server's
 * field messages at its field. Every value stays as typed whatever the outcome; a change drops the list, so the
 * numbers on screen always belong to the form shown. Pure: the search is an injected actor.
 */

// The search's words and its form's rules live beside it; the page, stories and tests take them from here.
export * from './mixtureSearch.types';
export * from './mixtureSearch.form';

const MAX_SLOTS: Record<SlotList, number> = { replicates: MAX_FURTHER_REPLICATES, knownContributors: MAX_KNOWN_CONTRIBUTORS };

const replaced = <T>(list: readonly T[], index: number, value: T): T[] => list.map((v, i) => (i === index ? value : v));
const toggled = (list: readonly string[], value: string): string[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
const chosenAnalysis = (context: Pick<MixtureSearchContext, 'analyses' | 'analysisId'>) => context.analyses.find((a) => a.id === context.analysisId) ?? null;

/** A change to the form: the list or the failure of the old form is dropped. */
const change = (partial: Partial<MixtureSearchContext>): Partial<MixtureSearchContext> => ({ ...partial, answer: null, error: null });

const slotAt = (context: MixtureSearchContext, event: { list: SlotList; index: number }): ProfileSlot | undefined => context[event.list][event.index];

/** Changing the form: taken in every state but running. */
const EDITS = {
  'analysis.choose': { guard: 'analysisExists', target: '#mixtureSearch.editing', actions: 'chooseAnalysis' },
  'slot.add': { guard: 'canAddSlot', target: '#mixtureSearch.editing', actions: 'addSlot' },
  'slot.choose': { guard: 'storedSlot', target: '#mixtureSearch.editing', actions: 'chooseSlot' },
  'slot.type': { guard: 'typedSlotMarker', target: '#mixtureSearch.editing', actions: 'typeSlot' },
  'slot.remove': { guard: 'slotExists', target: '#mixtureSearch.editing', actions: 'removeSlot' },
  'evidence.type': { guard: 'typedEvidenceMarker', target: '#mixtureSearch.editing', actions: 'typeEvidence' },
  'parameters.edit': { target: '#mixtureSearch.editing', actions: 'editParameter' },
  'parameters.chooseDropout': { target: '#mixtureSearch.editing', actions: 'chooseDropout' },
  'parameters.editDropout': { guard: 'contributorExists', target: '#mixtureSearch.editing', actions: 'editDropout' },
  'parameters.editDropoutHd': { guard: 'contributorExists', target: '#mixtureSearch.editing', actions: 'editDropoutHd' },
  'parameters.reset': { guard: 'hasAnalysis', target: '#mixtureSearch.editing', actions: 'resetParameters' },
  'parameters.check': { target: '#mixtureSearch.editing', actions: 'checkParameter' },
  'model.choose': { target: '#mixtureSearch.editing', actions: 'chooseModel' },
  'continuous.check': { target: '#mixtureSearch.editing', actions: 'checkContinuousPart' },
  'population.toggle': { target: '#mixtureSearch.editing', actions: 'togglePopulation' },
  'sampleType.toggle': { target: '#mixtureSearch.editing', actions: 'toggleSampleType' },
  'scope.edit': { target: '#mixtureSearch.editing', actions: 'editScope' },
} as const;

export const mixtureSearchMachine = setup({
  types: {
    context: {} as MixtureSearchContext,
    events: {} as MixtureSearchEvent,
    input: {} as MixtureSearchInput,
    tags: {} as MixtureSearchTag,
  },
  actors: {
    search: fromPromise<MixtureSearchAnswer, MixtureSearchBody>(async () => {
      throw new Error('mixtureSearchMachine: provide the "search" actor (the mixture search page)');
    }),
  },
  guards: {
    hasBlockers: ({ context }) => Object.keys(formErrors(context)).length > 0,
    hasAnalysis: ({ context }) => chosenAnalysis(context) !== null,
    analysisExists: ({ context, event }) => event.type === 'analysis.choose' && context.analyses.some((a) => a.id === event.analysisId),
    canAddSlot: ({ context, event }) => event.type === 'slot.add' && context[event.list].length < MAX_SLOTS[event.list],
    slotExists: ({ context, event }) => event.type === 'slot.remove' && slotAt(context, event) !== undefined,
    storedSlot: ({ context, event }) => event.type === 'slot.choose' && slotAt(context, event)?.source === 'stored',
    typedSlotMarker: ({ context, event }) => event.type === 'slot.type' && slotAt(context, event)?.source === 'typed' && context.markers.includes(event.marker),
    typedEvidenceMarker: ({ context, event }) => event.type === 'evidence.type' && context.evidence === null && context.markers.includes(event.marker),
    contributorExists: ({ context, event }) => (event.type === 'parameters.editDropout' || event.type === 'parameters.editDropoutHd') && event.contributor >= 0 && event.contributor < context.parameters.dropoutEach.length,
  },
  actions: {
    chooseAnalysis: assign(({ context, event }) => {
      assertEvent(event, 'analysis.choose');
      // Another analysis brings its own parameters.
      return change({ analysisId: event.analysisId, parameters: mixtureDraft(chosenAnalysis({ ...context, analysisId: event.analysisId })?.mixture) });
    }),
    addSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.add');
      const slot: ProfileSlot = event.source === 'stored' ? { source: 'stored', profile: null } : { source: 'typed', alleles: {} };
      return change({ [event.list]: [...context[event.list], slot] });
    }),
    chooseSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.choose');
      return change({ [event.list]: replaced(context[event.list], event.index, { source: 'stored', profile: event.profile }) });
    }),
    typeSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.type');
      const slot = slotAt(context, event) as Extract<ProfileSlot, { source: 'typed' }>;
      return change({ [event.list]: replaced(context[event.list], event.index, { source: 'typed', alleles: { ...slot.alleles, [event.marker]: event.text } }) });
    }),
    typeEvidence: assign(({ context, event }) => {
      assertEvent(event, 'evidence.type');
      return change({ typedEvidence: { ...context.typedEvidence, [event.marker]: event.text } });
    }),
    removeSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.remove');
      return change({ [event.list]: context[event.list].filter((_, i) => i !== event.index) });
    }),
    editParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.edit');
      const p = context.parameters;
      return change({ parameters: event.field === 'contributors' ? withContributors(p, event.value) : { ...p, [event.field]: event.value } });
    }),
    chooseDropout: assign(({ context, event }) => {
      assertEvent(event, 'parameters.chooseDropout');
      return change({ parameters: { ...context.parameters, dropout: event.dropout } });
    }),
    editDropout: assign(({ context, event }) => {
      assertEvent(event, 'parameters.editDropout');
      return change({ parameters: { ...context.parameters, dropoutEach: replaced(context.parameters.dropoutEach, event.contributor, event.value) } });
    }),
    editDropoutHd: assign(({ context, event }) => {
      assertEvent(event, 'parameters.editDropoutHd');
      return change({ parameters: { ...context.parameters, dropoutHdEach: replaced(context.parameters.dropoutHdEach, event.contributor, event.value) } });
    }),
    resetParameters: assign(({ context }) => change({ parameters: mixtureDraft(chosenAnalysis(context)?.mixture) })),
    checkParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.check');
      return change({ parameters: { ...context.parameters, [event.field]: event.checked } });
    }),
    chooseModel: assign(({ event }) => {
      assertEvent(event, 'model.choose');
      return change({ model: event.model });
    }),
    checkContinuousPart: assign(({ context, event }) => {
      assertEvent(event, 'continuous.check');
      const parts = { ...context.continuousParts, [event.part]: event.checked };
      // Forward stutter needs the backward stutter model (EuroForMix).
      if (event.part === 'forwardStutter' && event.checked) parts.backwardStutter = true;
      if (event.part === 'backwardStutter' && !event.checked) parts.forwardStutter = false;
      return change({ continuousParts: parts });
    }),
    togglePopulation: assign(({ context, event }) => {
      assertEvent(event, 'population.toggle');
      return change({ populationIds: toggled(context.populationIds, event.populationId) });
    }),
    toggleSampleType: assign(({ context, event }) => {
      assertEvent(event, 'sampleType.toggle');
      return change({ sampleTypes: toggled(context.sampleTypes, event.sampleType) });
    }),
    editScope: assign(({ event }) => {
      assertEvent(event, 'scope.edit');
      return change({ [event.field]: event.value });
    }),
  },
}).createMachine({
  id: 'mixtureSearch',
  context: ({ input }) => initialSearchContext(input),
  initial: 'editing',
  states: {
    editing: {
      on: { ...EDITS, 'search.run': 'validating' },
    },
    /** Run was pressed: what is missing keeps the user editing, each field saying what. */
    validating: {
      always: [
        { guard: 'hasBlockers', target: 'editing', actions: assign({ showBlockers: true }) },
        { target: 'running', actions: assign(({ context }) => ({ showBlockers: false, request: searchRequest(context), answer: null, error: null })) },
      ],
    },
    running: {
      tags: ['busy'],
      invoke: {
        src: 'search',
        input: ({ context }) => context.request!,
        onDone: { target: 'results', actions: assign({ answer: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ context, event }) => toSearchError(event.error, context.parameters.dropout) }) },
      },
      // Leaving the state stops the actor, whose signal aborts the request.
      on: { 'search.cancel': 'editing' },
    },
    results: {
      on: { ...EDITS, 'search.run': 'validating' },
    },
    /** The server refused or failed: the form keeps every value, the messages sit at their fields. */
    failed: {
      on: {
        ...EDITS,
        'search.run': 'validating',
        'search.retry': 'validating',
        'failure.dismiss': { target: 'editing', actions: assign({ error: null }) },
      },
    },
  },
});
