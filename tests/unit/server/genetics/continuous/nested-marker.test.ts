import { describe, expect, it } from 'vitest';
import { compiledLogLikelihood, compileMarker } from '../../../../../server/genetics/continuous/compiled-marker';
import { prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { logGammaDensity, logLowerGammaRatio } from '../../../../../server/genetics/continuous/gamma-functions';
import { nestedLogLikelihood, nestMarker } from '../../../../../server/genetics/continuous/nested-marker';
import { evidence, person, population, replicate } from './continuous-fixtures';

// Four unknowns summed by the nested loops against a brute force written here over every joint genotype of seen
// alleles 14, 15, 16 and Q (the rest of the table): each unknown drawn in turn by the Balding–Nichols formula after a
// typed non-contributor, backward and forward stutter (Q gives none) onto 13 and 17 too, degradation, three
// replicates with drop-outs and a drop-in. Tolerance 1e-12 relative.
const TABLE: Record<string, number> = { 12: 0.05, 13: 0.1, 14: 0.2, 15: 0.25, 16: 0.2, 17: 0.1, 18: 0.1 };
const SEEN = ['14', '15', '16'];
const ALLELES = [...SEEN, 'Q'];
const FREQUENCY = [...SEEN.map((a) => TABLE[a]!), 1 - SEEN.reduce((s, a) => s + TABLE[a]!, 0)];
const SIZES: Record<string, number> = { 13: 96, 14: 100, 15: 104, 16: 108, 17: 112, Q: 140 };
const REPLICATES: Record<string, number>[] = [{ 14: 900, 15: 1500, 16: 300 }, { 14: 820, 15: 1320, 16: 70 }, { 15: 1250, 16: 260 }];
const NON_CONTRIBUTOR = [1, 3];
const [THETA, C, LAMBDA, AT] = [0.02, 0.05, 0.01, 50];
const P = { mx: [0.45, 0.3, 0.15, 0.1], mu: 1100, sigma: 0.25, beta: 0.8, xiB: 0.08, xiF: 0.02 };

function bruteForce(): number {
  const genotypes = ALLELES.flatMap((_, a) => ALLELES.slice(a).map((__, j) => [a, a + j] as const));
  const counts = ALLELES.map(() => 0);
  for (const a of NON_CONTRIBUTOR) counts[a]! += 1;
  let total = NON_CONTRIBUTOR.length;
  const draw = (a: number) => (counts[a]! * THETA + (1 - THETA) * FREQUENCY[a]!) / (1 + (total - 1) * THETA);
  const degraded = (allele: string) => P.beta ** ((SIZES[allele]! - 125) / 100) / P.sigma ** 2;
  const scale = P.mu * P.sigma ** 2;
  // Expected shape at a position: each contributor's own copies (less what stutters away), one repeat above's backward stutter, below's forward.
  const shapeAt = (persons: (readonly [number, number])[], position: string) =>
    persons.reduce((s, g, k) => {
      const copies = (allele: string) => g.filter((a) => ALLELES[a] === allele).length;
      const own = copies(position) * (position === 'Q' ? degraded('Q') : degraded(position) * (1 - P.xiB - P.xiF));
      const stutters = position === 'Q' ? 0 : P.xiB * copies(`${Number(position) + 1}`) * (SEEN.includes(`${Number(position) + 1}`) ? degraded(`${Number(position) + 1}`) : 0) + P.xiF * copies(`${Number(position) - 1}`) * (SEEN.includes(`${Number(position) - 1}`) ? degraded(`${Number(position) - 1}`) : 0);
      return s + P.mx[k]! * (own + stutters);
    }, 0);
  let sum = 0;
  const chosen: (readonly [number, number])[] = [];
  const visit = (prior: number) => {
    if (chosen.length === 4) {
      let given = 1;
      for (const peaks of REPLICATES) {
        let dropIns = 1;
        let any = false;
        for (const position of ['13', ...SEEN, '17', 'Q']) {
          const shape = shapeAt(chosen, position);
          const y = peaks[position];
          if (y !== undefined && shape > 0) given *= Math.exp(logGammaDensity(y, shape, scale));
          else if (y !== undefined) (dropIns *= C * TABLE[position]! * LAMBDA * Math.exp(-LAMBDA * (y - AT))), (any = true);
          else if (shape > 0) given *= Math.exp(logLowerGammaRatio(shape, AT / scale));
        }
        given *= any ? dropIns : 1 - C;
      }
      sum += prior * given;
      return;
    }
    for (const g of genotypes) {
      const first = draw(g[0]);
      counts[g[0]]! += 1;
      total++;
      const second = draw(g[1]);
      counts[g[1]]! += 1;
      total++;
      chosen.push(g);
      visit(prior * (g[0] === g[1] ? first * second : 2 * first * second));
      chosen.pop();
      counts[g[0]]! -= 1;
      counts[g[1]]! -= 1;
      total -= 2;
    }
  };
  visit(1);
  return sum;
}

describe('the nested-loop sum over four unknowns', () => {
  it('equals a brute-force enumeration to 1e-12 relative, and the compiled sum', () => {
    const e = prepareEvidence(
      evidence(REPLICATES.map((peaks) => replicate({ M: peaks })), population({ M: TABLE }), {
        theta: THETA,
        dropIn: C,
        dropInLambda: LAMBDA,
        model: { degradation: true, backwardStutter: true, forwardStutter: true },
        fragmentSize: (_, a) => SIZES[a],
        qAlleleSize: () => SIZES.Q,
      }),
    );
    const model = prepareHypothesis(e, { contributors: [null, null, null, null], nonContributors: [person({ M: ['15', '18'] })] }, { contributor: String, nonContributor: String });
    const nested = nestMarker(e.markers[0]!, model.markers[0]!)!;
    const value = nestedLogLikelihood(nested, P);
    expect(Number.isFinite(value)).toBe(true);
    expect(Math.abs(value - Math.log(bruteForce()))).toBeLessThan(1e-12 * Math.abs(value));
    expect(Math.abs(value - compiledLogLikelihood(compileMarker(e.markers[0]!, model.markers[0]!)!, P))).toBeLessThan(1e-12 * Math.abs(value));
    // The buffers are reused: a second evaluation at other parameters and back gives the first number again.
    nestedLogLikelihood(nested, { ...P, mx: [0.1, 0.2, 0.3, 0.4] });
    expect(nestedLogLikelihood(nested, P)).toBe(value);
  });
});
