import type { AnalysisInput, AnalysisPedigree } from '../../../core/schemas/analyses';
import type { MutationModelInput, MutationSetting } from '../../../core/schemas/pedigrees';
import { analysisHypotheses, MutationModelError, mutationMatrix, PedigreeError } from '../../genetics/pedigree';
import { BadRequest } from '../errors';

/**
 * A few alleles to try a model's parameters on before it is saved (a custom matrix, and a one-step model at a marker
 * with microvariants, are refused per marker when used).
 */
const TRIAL_ALLELES = ['9', '9.3', '10', '11'];
const WHOLE_ALLELES = ['9', '10', '11'];

function checkModel(model: MutationModelInput, path: string): void {
  if (model.model === 'custom') return;
  try {
    const alleles = model.model === 'onestep' ? WHOLE_ALLELES : TRIAL_ALLELES;
    mutationMatrix(model, alleles, alleles.map(() => 1 / alleles.length));
  } catch (error) {
    if (error instanceof MutationModelError) throw new BadRequest(error.message, [{ path, message: error.message }]);
    throw error;
  }
}

/** Checks each sex's model, for every marker and the markers with their own. */
export function checkMutationSetting(mutation: MutationSetting): void {
  checkModel(mutation.female, '/mutation/female');
  checkModel(mutation.male, '/mutation/male');
  const seen = new Set<string>();
  mutation.markers.forEach((m, i) => {
    if (seen.has(m.marker)) throw new BadRequest(`${m.marker} has two mutation models; give each marker once.`, [{ path: `/mutation/markers/${i}/marker`, message: 'Given twice' }]);
    seen.add(m.marker);
    checkModel(m.female, `/mutation/markers/${i}/female`);
    checkModel(m.male, `/mutation/markers/${i}/male`);
  });
}

/**
 * The pedigree and mutation models an analysis may hold (issue 16): a Pedigree analysis draws its pedigree over its
 * roles (autosomal); a pairwise or trio analysis may add one to weigh mutation instead of μ/A; exclusion analyses
 * have neither. Every problem is a 400 naming the field.
 */
export function checkAnalysisPedigree(input: Pick<AnalysisInput, 'kind' | 'profileKind' | 'roles'>, pedigree: AnalysisPedigree | null, mutation: MutationSetting | null): void {
  if (input.kind === 'Exclusion' && (pedigree || mutation)) throw new BadRequest('An exclusion analysis has no pedigree or mutation model.', [{ path: '/pedigree', message: 'Not for exclusion analyses' }]);
  if (input.kind === 'Pedigree' && !pedigree) throw new BadRequest('Draw the pedigree: its persons, their parents and the tested person.', [{ path: '/pedigree', message: 'Required' }]);
  if (input.profileKind === 'YStr' && (pedigree || mutation)) throw new BadRequest('Pedigrees and mutation models are for autosomal profiles.', [{ path: '/profileKind', message: 'Autosomal only' }]);
  if (mutation && !pedigree) throw new BadRequest('A mutation model needs the analysis\'s pedigree (who is whose parent) to know each transmission.', [{ path: '/mutation', message: 'Draw the pedigree first' }]);
  if (pedigree) {
    try {
      analysisHypotheses(pedigree, input.roles);
    } catch (error) {
      if (error instanceof PedigreeError) throw new BadRequest(error.message, [{ path: '/pedigree', message: error.message }]);
      throw error;
    }
  }
  if (mutation) checkMutationSetting(mutation);
}
