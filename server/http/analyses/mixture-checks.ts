import { CONTINUOUS_MIXTURE, type AnalysisInput } from '../../../core/schemas/analyses';
import type { AnalysisPedigree } from '../../../core/schemas/analyses';
import type { MixtureSetting } from '../../../core/schemas/mixtures';
import { BadRequest } from '../errors';

/**
 * A mixture analysis holds its parameters (issue 17), for autosomal profiles, without a pedigree; no other kind holds
 * them. Fixed drop-out values must fit the number of contributors. Every problem is a 400 naming the field.
 */
export function checkAnalysisMixture(input: Pick<AnalysisInput, 'kind' | 'profileKind'>, mixture: MixtureSetting | null, pedigree: AnalysisPedigree | null): void {
  if (input.kind === CONTINUOUS_MIXTURE) {
    // Its parameters are the calculator's (fixed or fitted per run); the analysis holds its kind and roles.
    if (mixture) throw new BadRequest('A continuous mixture analysis holds no semi-continuous parameters.', [{ path: '/mixture', message: 'Mixture analyses only' }]);
    if (input.profileKind !== 'Autosomal') throw new BadRequest('Continuous mixture analyses weigh autosomal profiles.', [{ path: '/profileKind', message: 'Autosomal only' }]);
    if (pedigree) throw new BadRequest('A continuous mixture analysis has no pedigree.', [{ path: '/pedigree', message: 'Not for mixture analyses' }]);
    return;
  }
  if (input.kind !== 'Mixture') {
    if (mixture) throw new BadRequest('Only a mixture analysis holds mixture parameters.', [{ path: '/mixture', message: 'Mixture analyses only' }]);
    return;
  }
  if (!mixture) throw new BadRequest('Set the mixture parameters: contributors, drop-out, drop-in and θ.', [{ path: '/mixture', message: 'Required' }]);
  if (input.profileKind !== 'Autosomal') throw new BadRequest('Mixture analyses weigh autosomal profiles.', [{ path: '/profileKind', message: 'Autosomal only' }]);
  if (pedigree) throw new BadRequest('A mixture analysis has no pedigree.', [{ path: '/pedigree', message: 'Not for mixture analyses' }]);
  if (mixture.dropout.mode === 'fixed' && mixture.dropout.values.length !== 1 && mixture.dropout.values.length !== mixture.contributors) {
    throw new BadRequest(`Give one drop-out for all contributors or one per contributor (${mixture.contributors}).`, [{ path: '/mixture/dropout/values', message: `1 or ${mixture.contributors} values` }]);
  }
}
