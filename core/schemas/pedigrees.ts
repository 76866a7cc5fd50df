import { z } from 'zod';
import { Id } from './common';

/** Pedigree persons (GENETICS.md "Pedigrees"): both parents or none. Names are the pedigree's own labels. */
export const PedigreePersonInput = z
  .object({
    id: z.string().trim().min(1, 'Every person needs a name').max(40, 'At most 40 characters'),
    sex: z.enum(['female', 'male']),
    father: z.string().trim().min(1).optional(),
    mother: z.string().trim().min(1).optional(),
  })
  .meta({ id: 'PedigreePerson' });
export type PedigreePersonInput = z.infer<typeof PedigreePersonInput>;

/** One sex's mutation model with its parameters (pedmut's models; GENETICS.md "Mutation models"). */
export const MutationModelInput = z
  .discriminatedUnion('model', [
    z.object({ model: z.literal('trivial') }),
    z.object({ model: z.enum(['equal', 'proportional', 'onestep']), rate: z.number().min(0).max(1) }),
    z.object({ model: z.literal('stepwise'), rate: z.number().min(0).max(1), rate2: z.number().min(0).max(1), range: z.number().positive() }),
    z.object({ model: z.literal('custom'), matrix: z.array(z.array(z.number())).min(1) }),
  ])
  .meta({ id: 'MutationModel' });
export type MutationModelInput = z.infer<typeof MutationModelInput>;

/** Female and male models; a marker may have its own (a custom matrix is over that marker's alleles). */
export const SexMutationModels = z.object({ female: MutationModelInput, male: MutationModelInput });

/** Female and male mutation models for every marker, and markers with their own (GENETICS.md "Mutation models"). */
export const MutationSetting = SexMutationModels.extend({
  markers: z.array(SexMutationModels.extend({ marker: z.string().trim().min(1) })).default([]),
}).meta({ id: 'MutationSetting' });
export type MutationSetting = z.infer<typeof MutationSetting>;

/** A population's frequencies given in the request (as a reference program would be given them), instead of a stored population. */
export const FrequencyTableInput = z.object({
  markers: z
    .array(
      z.object({
        marker: z.string().trim().min(1),
        alleles: z.array(z.object({ allele: z.string().trim().min(1), frequency: z.number().gt(0).max(1) })).min(1),
        sampleSize: z.number().int().positive().nullable().default(null),
      }),
    )
    .min(1),
  /** The floor of an allele absent or rarer (NRC II 4.10 uses 5/(2N) where N is given). */
  minimumAlleleFrequency: z.number().gt(0).max(1).default(0.001),
});

/** A typed person of the pedigree: a stored profile placed in the role, or genotypes written out. */
export const PedigreeTypedInput = z.union([
  z.object({ person: z.string().trim().min(1), profileId: Id }),
  z.object({ person: z.string().trim().min(1), markers: z.array(z.object({ marker: z.string().trim().min(1), alleles: z.array(z.string().trim().min(1)).min(1).max(2) })).min(1) }),
]);

export const PedigreeLrBody = z
  .object({
    h1: z.array(PedigreePersonInput).min(1).max(40),
    h2: z.array(PedigreePersonInput).min(1).max(40),
    typed: z.array(PedigreeTypedInput).min(1).max(20),
    /** A stored population, or the frequencies themselves: exactly one. */
    populationId: Id.optional(),
    frequencies: FrequencyTableInput.optional(),
    mutation: MutationSetting,
  })
  .meta({ id: 'PedigreeLrBody' });
export type PedigreeLrBody = z.infer<typeof PedigreeLrBody>;

export const PedigreeMarkerLr = z.object({
  marker: z.string(),
  /** Each typed person's alleles here, in the order of `typed`. */
  genotypes: z.array(z.object({ person: z.string(), alleles: z.array(z.string()) })),
  alleles: z.array(z.string()),
  frequencies: z.array(z.number()),
  mutation: z.object({ female: MutationModelInput, male: MutationModelInput, text: z.string() }),
  likelihoodH1: z.number(),
  likelihoodH2: z.number(),
  lr: z.number(),
  /** null where the marker excludes (LR 0 has no logarithm). */
  log10: z.number().nullable(),
  verdict: z.enum(['consistent', 'needs a mutation', 'excluded']),
});

export const PedigreeLrResult = z
  .object({
    h1: z.array(PedigreePersonInput),
    h2: z.array(PedigreePersonInput),
    population: z.object({ id: Id.nullable(), name: z.string(), minimumAlleleFrequency: z.number() }),
    markers: z.array(PedigreeMarkerLr),
    /** Markers some typed person lacks, left out of the product. */
    skippedMarkers: z.array(z.string()),
    lr: z.number(),
    log10: z.number().nullable(),
  })
  .meta({ id: 'PedigreeLrResult' });
export type PedigreeLrResult = z.infer<typeof PedigreeLrResult>;
