import type { MutationMatrix } from './mutation-model';

/** One marker's model: its alleles with their founder frequencies, and each sex's mutation matrix over those alleles. */
export interface PedigreeMarker {
  alleles: readonly string[];
  frequencies: readonly number[];
  female: MutationMatrix;
  male: MutationMatrix;
}
