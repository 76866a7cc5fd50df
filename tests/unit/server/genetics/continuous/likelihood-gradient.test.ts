import { describe, expect, it } from 'vitest';
import { logLikelihood, prepareEvidence, prepareHypothesis, type HypothesisModel } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { logLikelihoodGradient } from '../../../../../server/genetics/continuous/likelihood-gradient';
import { nestMarker } from '../../../../../server/genetics/continuous/nested-marker';
import { fromCoordinates, toCoordinates } from '../../../../../server/genetics/continuous/parameter-space';
import { evidence, person, population, replicate } from './continuous-fixtures';

// The fit's gradient from each slot's posterior share (likelihood-gradient.ts) against central differences of the exact
// log-likelihood, for the same two markers summed each of the three ways (compiled, nested loops, the generic walk):
// three unknowns and a typed non-contributor, degradation, both stutters, drop-outs (16 missing in a replicate, a
// drop-out of the minor's 12) and a drop-in (19, explained by no genotype but Q).
const TABLE: Record<string, number> = { 11: 0.05, 12: 0.1, 13: 0.1, 14: 0.2, 15: 0.25, 16: 0.15, 17: 0.1, 19: 0.05 };
const SIZES: Record<string, number> = { 11: 92, 12: 96, 13: 100, 14: 104, 15: 108, 16: 112, 17: 116, 19: 124, Q: 140 };
const REPLICATES: Record<string, Record<string, number>>[] = [
  { M: { 13: 120, 14: 900, 15: 1500, 16: 300 }, N: { 11: 700, 12: 90, 14: 640 } },
  { M: { 14: 820, 15: 1320, 19: 80 }, N: { 11: 760, 14: 590, 15: 60 } },
];
const SWITCHES = { degradation: true, backwardStutter: true, forwardStutter: true };
const P = { mx: [0.55, 0.3, 0.15], mu: 1000, sigma: 0.3, beta: 0.8, xiB: 0.07, xiF: 0.02 };

function model(): HypothesisModel {
  const e = prepareEvidence(
    evidence(REPLICATES.map((r) => replicate(r)), population({ M: TABLE, N: TABLE }), { theta: 0.02, dropIn: 0.05, dropInLambda: 0.01, model: SWITCHES, fragmentSize: (_, a) => SIZES[a], qAlleleSize: () => SIZES.Q }),
  );
  return prepareHypothesis(e, { contributors: [null, null, null], nonContributors: [person({ M: ['15', '17'], N: ['11', '13'] })] }, { contributor: String, nonContributor: String });
}

function differences(m: HypothesisModel, x: number[]): number[] {
  const at = (y: number[]) => logLikelihood(m, fromCoordinates(y, m.contributors, SWITCHES)).total;
  return x.map((v, i) => (at(x.map((w, j) => (j === i ? v + 1e-5 : w))) - at(x.map((w, j) => (j === i ? v - 1e-5 : w)))) / 2e-5);
}

describe('the log-likelihood gradient from the slots’ posterior shares', () => {
  it('equals central differences of the exact log-likelihood, compiled, nested and walked', () => {
    const compiled = model();
    expect(compiled.compiled.every((c) => c !== null)).toBe(true);
    const nested = model();
    nested.markers.forEach((h, i) => ((nested.compiled[i] = null), (nested.nested[i] = nestMarker(nested.evidence.markers[i]!, h))));
    expect(nested.nested.every((n) => n !== null)).toBe(true);
    const walked = { ...model(), compiled: [null, null], nested: [null, null] };
    const x = toCoordinates(P, SWITCHES);
    const expected = differences(compiled, x);
    expect(expected).toHaveLength(7);
    for (const m of [compiled, nested, walked]) {
      const gradient = logLikelihoodGradient(m, x, SWITCHES);
      gradient.forEach((g, i) => expect(Math.abs(g - expected[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(expected[i]!))));
    }
    // Given the values of the evaluation the buffers hold (a fit's last call), the same gradient.
    const values = logLikelihood(nested, P).perMarker;
    const known = logLikelihoodGradient(nested, x, SWITCHES, undefined, values);
    known.forEach((g, i) => expect(Math.abs(g - expected[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(expected[i]!))));
  });
});
