import { z } from 'zod';
import { AnalysisInput, CONTINUOUS_MIXTURE, MIXTURE_ROLES, type Analysis } from '../../../core/schemas/analyses';
import { DropoutSetting, MAX_MIXTURE_CONTRIBUTORS, MixtureSetting } from '../../../core/schemas/mixtures';
import { REQUIRED } from '../../../core/schemas/named-record';

/** A number box of the form: empty is "Required", then the core's own bounds and messages. */
const formNumber = <T extends z.ZodType<number, number>>(core: T) => z.number({ error: REQUIRED }).pipe(core);
const [FixedDropout, EstimatedDropout] = DropoutSetting.options;
const dropoutValue = formNumber(z.number().min(0, 'Cannot be negative').pipe(FixedDropout.shape.values.element));

/** MixtureSetting as the form checks it: the same bounds, with messages for empty boxes and negative drop-outs. */
const MixtureForm = MixtureSetting.extend({
  dropIn: formNumber(MixtureSetting.shape.dropIn),
  theta: formNumber(MixtureSetting.shape.theta),
  dropout: z.discriminatedUnion('mode', [FixedDropout.extend({ values: z.array(dropoutValue).min(1).max(MAX_MIXTURE_CONTRIBUTORS) }), EstimatedDropout]),
});

/** A Mixture analysis's checks the server repeats: its parameters are set, autosomal, fixed drop-outs fit the contributors. */
function checkMixture(input: AnalysisInput, ctx: z.RefinementCtx): void {
  const mixture = input.mixture;
  if (!mixture) {
    ctx.addIssue({ code: 'custom', path: ['mixture'], message: 'Set the mixture parameters: contributors, drop-out, drop-in and θ' });
    return;
  }
  if (input.profileKind !== 'Autosomal') ctx.addIssue({ code: 'custom', path: ['profileKind'], message: 'Mixture analyses weigh autosomal profiles' });
  const values = mixture.dropout.mode === 'fixed' ? mixture.dropout.values : [];
  if (values.length > 1 && values.length !== mixture.contributors) {
    ctx.addIssue({ code: 'custom', path: ['mixture', 'dropout', 'values'], message: `One value for all contributors or one per contributor (${mixture.contributors})` });
  }
}

/**
 * The analysis form's schema: AnalysisInput, plus the checks a user should see before saving (the server repeats
 * them all): a Pedigree analysis draws its pedigree, names are unique, a person has both parents or none; a Mixture
 * analysis has its parameters, each number in range and one drop-out for all or one per contributor.
 */
export const AnalysisForm = AnalysisInput.extend({ mixture: MixtureForm.nullish() }).superRefine((input, ctx) => {
  if (input.kind === 'Mixture') checkMixture(input, ctx);
  if (input.kind !== 'Pedigree') return;
  if (!input.pedigree) {
    ctx.addIssue({ code: 'custom', path: ['pedigree'], message: 'Draw the pedigree: add its persons and choose the tested person' });
    return;
  }
  const seen = new Set<string>();
  input.pedigree.persons.forEach((p, i) => {
    if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['pedigree', 'persons', i, 'id'], message: 'Another person has this name' });
    seen.add(p.id);
    if ((p.father === undefined) !== (p.mother === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['pedigree', 'persons', i, p.father === undefined ? 'father' : 'mother'], message: 'Give both parents (an untyped one if unknown) or none' });
    }
  });
}) as unknown as z.ZodType<AnalysisInput, AnalysisInput>;

export const EMPTY_ANALYSIS: AnalysisInput = {
  name: '',
  label: '',
  kind: 'Computational',
  profileKind: 'Autosomal',
  roles: [''],
  threshold: null,
  active: true,
  pedigree: null,
  mutation: null,
  mixture: null,
};

/** What a new Mixture analysis starts from (the seed's: drop-in 0.05, θ 0.01, conservative drop-out). */
export const DEFAULT_MIXTURE: MixtureSetting = {
  contributors: 2,
  dropout: { mode: 'estimated', estimate: 'conservative' },
  dropIn: 0.05,
  theta: 0.01,
  personOfInterestTypedUnderHd: true,
  normalizeFrequencies: false,
};

/** The form's values of a stored analysis (or of the last save attempt). */
export const formValuesOf = (r: AnalysisInput | Analysis): AnalysisInput => ({
  name: r.name,
  label: r.label,
  kind: r.kind,
  profileKind: r.profileKind,
  roles: r.roles,
  threshold: r.threshold,
  active: r.active,
  pedigree: r.pedigree ?? null,
  mutation: r.mutation ?? null,
  mixture: r.mixture ?? null,
});

/** A computational analysis may weigh mutation through a pedigree it already has (autosomal only). */
export const weighsMutation = (values: Pick<AnalysisInput, 'kind' | 'profileKind'>, stored: Analysis | null): boolean =>
  values.kind === 'Pedigree' || (values.kind === 'Computational' && values.profileKind === 'Autosomal' && Boolean(stored?.pedigree));

/**
 * What a save sends. Pedigree: the pedigree drawn and its mutation models. Computational: the mutation models
 * when it has a pedigree, which this form does not edit and so leaves out (the server keeps it). Exclusion:
 * neither (null, which the server requires). Mixture: its parameters and its two roles, no pedigree or models
 * (null, which the server requires). A kind other than Mixture sends `mixture: null` only when it was a Mixture
 * analysis (the server clears the parameters). Leaving a field out keeps what is stored.
 */
export function analysisBody(values: AnalysisInput, stored: Analysis | null): AnalysisInput {
  const { pedigree, mutation, mixture, ...rest } = values;
  if (values.kind === 'Mixture') return { ...rest, roles: [...MIXTURE_ROLES], pedigree: null, mutation: null, mixture };
  // Its parameters are the calculator's, per run.
  if (values.kind === CONTINUOUS_MIXTURE) return { ...rest, roles: [...MIXTURE_ROLES], pedigree: null, mutation: null, mixture: null };
  const body = stored?.kind === 'Mixture' ? { ...rest, mixture: null } : rest;
  if (values.kind === 'Pedigree') return { ...body, pedigree, mutation };
  if (values.kind === 'Exclusion') return { ...body, pedigree: null, mutation: null };
  return weighsMutation(values, stored) ? { ...body, mutation } : body;
}
