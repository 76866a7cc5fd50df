import { describe, expect, it } from 'vitest';
import { logLikelihood, prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { logGammaDensity, logLowerGammaRatio } from '../../../../../server/genetics/continuous/gamma-functions';
import { evidence, person, population, replicate } from './continuous-fixtures';

// The likelihood summed here by brute force over every allele of the table (no merged Q allele), each unknown drawn
// in turn by the Balding–Nichols formula, every peak's density or drop-out and every drop-in written out; the
// engine (which merges unseen alleles into Q) must give the same number. Tolerance 1e-12 relative.
const TABLE: Record<string, number> = { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 };
const REPLICATES: Record<string, number>[] = [{ 14: 400, 15: 1200, 16: 650, 17: 300 }, { 15: 1100, 16: 700, 17: 120, 19: 60 }];
const KNOWN = ['15', '18'];
const [THETA, C, LAMBDA, AT] = [0.03, 0.05, 0.01, 50];
const P = { mx: [0.5, 0.3, 0.2], mu: 700, sigma: 0.3, beta: 1, xiB: 0, xiF: 0 };

function bruteForce(): number {
  const alleles = Object.keys(TABLE);
  const genotypes = alleles.flatMap((a, i) => alleles.slice(i).map((b) => [a, b] as const));
  const counts = new Map(alleles.map((a) => [a, 0]));
  let total = 0;
  for (const a of KNOWN) counts.set(a, counts.get(a)! + 1), total++;
  const draw = (a: string) => (counts.get(a)! * THETA + (1 - THETA) * TABLE[a]!) / (1 + (total - 1) * THETA);
  const take = (a: string, by: number) => (counts.set(a, counts.get(a)! + by), (total += by));
  const genotypeProbability = ([a, b]: readonly [string, string]) => {
    const first = draw(a);
    take(a, 1);
    const second = draw(b);
    take(a, -1);
    return a === b ? first * second : 2 * first * second;
  };
  const scale = P.mu * P.sigma ** 2;
  let sum = 0;
  for (const g1 of genotypes) {
    const p1 = genotypeProbability(g1);
    g1.forEach((a) => take(a, 1));
    for (const g2 of genotypes) {
      const p2 = genotypeProbability(g2);
      const persons = [KNOWN, g1, g2];
      let evidenceGiven = 1;
      for (const peaks of REPLICATES) {
        let dropIns = 1;
        let anyDropIn = false;
        for (const allele of alleles) {
          const shape = persons.reduce((s, genotype, k) => s + (P.mx[k]! * genotype.filter((x) => x === allele).length) / P.sigma ** 2, 0);
          const y = peaks[allele];
          if (y !== undefined && shape > 0) evidenceGiven *= Math.exp(logGammaDensity(y, shape, scale));
          else if (y !== undefined) (dropIns *= C * TABLE[allele]! * LAMBDA * Math.exp(-LAMBDA * (y - AT))), (anyDropIn = true);
          else if (shape > 0) evidenceGiven *= Math.exp(logLowerGammaRatio(shape, AT / scale));
        }
        evidenceGiven *= anyDropIn ? dropIns : 1 - C;
      }
      sum += p1 * p2 * evidenceGiven;
    }
    g1.forEach((a) => take(a, -1));
  }
  return sum;
}

describe('the exact sum over the unknowns\' genotypes against brute force', () => {
  it('two unknowns and a known contributor with an unseen allele, θ, two replicates, drop-out and drop-in', () => {
    const e = prepareEvidence(evidence(REPLICATES.map((peaks) => replicate({ D3S1358: peaks })), population({ D3S1358: TABLE }), { theta: THETA, dropIn: C, dropInLambda: LAMBDA }));
    const model = prepareHypothesis(e, { contributors: [person({ D3S1358: KNOWN }), null, null], nonContributors: [] }, { contributor: String, nonContributor: String });
    const engine = logLikelihood(model, P).total;
    expect(Math.abs(engine - Math.log(bruteForce()))).toBeLessThan(1e-12 * Math.abs(engine));
  });
});
