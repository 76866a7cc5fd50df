import { describe, expect, it } from 'vitest';
import { describeMutationModel, mutationMatrix, MutationModelError, type MutationModelSpec } from '../../../../../server/genetics/pedigree/mutation-model';

/** The matrix as rows, for comparing with hand-written ones. */
const rows = (spec: MutationModelSpec, alleles: string[], frequencies: number[]) => {
  const m = mutationMatrix(spec, alleles, frequencies);
  return alleles.map((_, i) => Array.from(m.values.subarray(i * alleles.length, (i + 1) * alleles.length)));
};
const expectRows = (actual: number[][], expected: number[][]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => row.forEach((v, j) => expect(v, `[${i}][${j}]`).toBeCloseTo(expected[i]![j]!, 15)));
};

describe('mutation models (pedmut mutationMatrix)', () => {
  it('equal: stay 1 − rate, each other allele rate/(n − 1)', () => {
    expectRows(rows({ model: 'equal', rate: 0.03 }, ['10', '11', '12', '13'], [0.1, 0.2, 0.3, 0.4]), [
      [0.97, 0.01, 0.01, 0.01],
      [0.01, 0.97, 0.01, 0.01],
      [0.01, 0.01, 0.97, 0.01],
      [0.01, 0.01, 0.01, 0.97],
    ]);
  });

  it('proportional: (1 − α)I + α·p with α = rate / Σp(1 − p), so the overall rate Σ pᵢ(1 − Mᵢᵢ) is the rate', () => {
    const p = [0.1, 0.2, 0.3, 0.4];
    const alpha = 0.05 / (0.1 * 0.9 + 0.2 * 0.8 + 0.3 * 0.7 + 0.4 * 0.6);
    const m = rows({ model: 'proportional', rate: 0.05 }, ['10', '11', '12', '13'], p);
    expectRows(m, p.map((_, i) => p.map((q, j) => (i === j ? 1 - alpha : 0) + alpha * q)));
    expect(p.reduce((s, q, i) => s + q * (1 - m[i]![i]!), 0)).toBeCloseTo(0.05, 15);
    expect(() => mutationMatrix({ model: 'proportional', rate: 0.5 }, ['10', '11'], [0.9, 0.1])).toThrow(MutationModelError);
  });

  it('a matrix built once is given again only for the same model, alleles and (proportional) frequencies', () => {
    const alleles = ['10', '11', '12', '13'];
    const first = rows({ model: 'proportional', rate: 0.05 }, alleles, [0.1, 0.2, 0.3, 0.4]);
    // Same alleles, other frequencies: the proportional model is another matrix.
    const other = rows({ model: 'proportional', rate: 0.05 }, alleles, [0.4, 0.3, 0.2, 0.1]);
    expect(other[0]![1]).not.toBeCloseTo(first[0]![1]!, 6);
    expectRows(rows({ model: 'proportional', rate: 0.05 }, alleles, [0.1, 0.2, 0.3, 0.4]), first);
    // Other rate, other alleles in the same count: other matrices.
    expect(rows({ model: 'equal', rate: 0.03 }, alleles, [0.25, 0.25, 0.25, 0.25])[0]![1]).toBeCloseTo(0.01, 15);
    expect(rows({ model: 'equal', rate: 0.06 }, alleles, [0.25, 0.25, 0.25, 0.25])[0]![1]).toBeCloseTo(0.02, 15);
    expect(rows({ model: 'onestep', rate: 0.02 }, ['10', '11', '12', '14'], [0.25, 0.25, 0.25, 0.25])[2]![3]).toBe(0);
    expect(rows({ model: 'onestep', rate: 0.02 }, ['10', '11', '12', '13'], [0.25, 0.25, 0.25, 0.25])[2]![3]).toBeCloseTo(0.01, 15);
    // A refused model is refused every time, never remembered.
    for (let i = 0; i < 2; i++) expect(() => mutationMatrix({ model: 'proportional', rate: 0.5 }, ['10', '11'], [0.9, 0.1])).toThrow(MutationModelError);
  });

  it('onestep: only to the neighbours one repeat away, rate shared; an allele without neighbours never mutates', () => {
    expectRows(rows({ model: 'onestep', rate: 0.02 }, ['10', '11', '12', '14'], [0.25, 0.25, 0.25, 0.25]), [
      [0.98, 0.02, 0, 0],
      [0.01, 0.98, 0.01, 0],
      [0, 0.02, 0.98, 0],
      [0, 0, 0, 1],
    ]);
    expect(() => mutationMatrix({ model: 'onestep', rate: 0.02 }, ['9.3', '10'], [0.5, 0.5])).toThrow(/whole-number alleles; 9.3/);
  });

  it('stepwise: range^step within a microvariant group scaled to rate, rate2 shared across groups, the rest stays', () => {
    const [rate, rate2, range] = [0.01, 0.001, 0.1];
    const m = rows({ model: 'stepwise', rate, rate2, range }, ['9', '9.3', '10', '11'], [0.25, 0.25, 0.25, 0.25]);
    // From 9: 10 and 11 share rate in the proportion 0.1 : 0.01; 9.3 (another group) gets rate2.
    expectRows([m[0]!], [[1 - rate - rate2, rate2, (0.1 / 0.11) * rate, (0.01 / 0.11) * rate]]);
    // From 9.3, alone in its group: each of the three others rate2/3, stay 1 − rate2.
    expectRows([m[1]!], [[rate2 / 3, 1 - rate2, rate2 / 3, rate2 / 3]]);
    // All alleles in one group: stay 1 − rate; rate2 plays no part.
    expectRows(rows({ model: 'stepwise', rate, rate2, range }, ['10', '11', '12'], [0.3, 0.3, 0.4]), [
      [1 - rate, (1 / 1.1) * rate, (0.1 / 1.1) * rate],
      [rate / 2, 1 - rate, rate / 2],
      [(0.1 / 1.1) * rate, (1 / 1.1) * rate, 1 - rate],
    ]);
  });

  it('stepwise groups microvariants as pedmut does, by R rounding halves to even: 9.5 and 10.5 are different groups', () => {
    const m = rows({ model: 'stepwise', rate: 0.01, rate2: 0.002, range: 0.5 }, ['9.5', '10.5', '11.5'], [0.3, 0.3, 0.4]);
    // 9.5 rounds to 10 (group −5), 10.5 to 10 (group +5), 11.5 to 12 (group −5): 9.5 and 11.5 together.
    expectRows(m, [
      [1 - 0.01 - 0.002, 0.002, 0.01],
      [0.001, 1 - 0.002, 0.001],
      [0.01, 0.002, 1 - 0.01 - 0.002],
    ]);
  });

  it('every model gives rows that sum to 1; one allele or no model is the identity', () => {
    const alleles = ['8', '9', '9.3', '10', '11', '12.2', '13'];
    const p = [0.05, 0.1, 0.15, 0.2, 0.25, 0.1, 0.15];
    const specs: MutationModelSpec[] = [{ model: 'trivial' }, { model: 'equal', rate: 0.01 }, { model: 'proportional', rate: 0.01 }, { model: 'stepwise', rate: 0.003, rate2: 0.0001, range: 0.2 }];
    for (const spec of specs) for (const row of rows(spec, alleles, p)) expect(row.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 14);
    expectRows(rows({ model: 'equal', rate: 0.2 }, ['10'], [1]), [[1]]);
  });

  it('custom: the laboratory matrix, checked; parameters out of range are refused with the reason', () => {
    expectRows(rows({ model: 'custom', matrix: [[0.9, 0.1], [0.2, 0.8]] }, ['10', '11'], [0.5, 0.5]), [
      [0.9, 0.1],
      [0.2, 0.8],
    ]);
    expect(() => mutationMatrix({ model: 'custom', matrix: [[0.9, 0.2], [0.2, 0.8]] }, ['10', '11'], [0.5, 0.5])).toThrow(/Row 10 .* sums to 1.1/);
    expect(() => mutationMatrix({ model: 'custom', matrix: [[1]] }, ['10', '11'], [0.5, 0.5])).toThrow(/2 × 2/);
    expect(() => mutationMatrix({ model: 'equal', rate: 1.5 }, ['10', '11'], [0.5, 0.5])).toThrow(/rate must be a number in \[0, 1\]/);
    expect(() => mutationMatrix({ model: 'stepwise', rate: 0.6, rate2: 0.5, range: 0.1 }, ['10', '11'], [0.5, 0.5])).toThrow(/at most 1/);
    expect(() => mutationMatrix({ model: 'stepwise', rate: 0.01, rate2: 0, range: 0 }, ['10', '11'], [0.5, 0.5])).toThrow(/range must be a positive number/);
    expect(() => mutationMatrix({ model: 'stepwise', rate: 0.01, rate2: 0, range: 0.1 }, ['X', 'Y'], [0.5, 0.5])).toThrow(/numbered alleles/);
    expect(() => mutationMatrix({ model: 'equal', rate: 0.01 }, ['10', '10'], [0.5, 0.5])).toThrow(/differ/);
  });

  it('describes each model with its parameters for the report', () => {
    expect(describeMutationModel({ model: 'stepwise', rate: 0.002, rate2: 1e-6, range: 0.1 })).toBe('stepwise, rate 0.002, rate2 0.000001, range 0.1');
    expect(describeMutationModel({ model: 'equal', rate: 0.005 })).toBe('equal, rate 0.005');
    expect(describeMutationModel({ model: 'trivial' })).toBe('no mutation');
    expect(describeMutationModel({ model: 'custom', matrix: [[1]] })).toBe('custom matrix');
  });
});
