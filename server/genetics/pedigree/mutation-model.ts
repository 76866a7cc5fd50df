/**
 * Mutation models for pedigree likelihoods (GENETICS.md "Mutation models"): the probability that a parent's allele
 * i is received as allele j, as a row-stochastic matrix over a marker's alleles. The models and their parameters
 * are those of the R package pedmut (Vigeland; `mutationMatrix()`), which the reference values are computed with.
 */

/** The models a laboratory chooses from; 'trivial' is no mutation (the identity). */
export const MUTATION_MODELS = ['trivial', 'equal', 'proportional', 'stepwise', 'onestep', 'custom'] as const;
export type MutationModelKind = (typeof MUTATION_MODELS)[number];

/** One sex's model with its parameters, as an analysis stores it and a report prints it. */
export type MutationModelSpec =
  | { model: 'trivial' }
  | { model: 'equal' | 'proportional' | 'onestep'; rate: number }
  | { model: 'stepwise'; rate: number; rate2: number; range: number }
  | { model: 'custom'; matrix: readonly (readonly number[])[] };

/** A built model: row i is the distribution of the allele received from a parent carrying alleles[i]. */
export interface MutationMatrix {
  alleles: readonly string[];
  /** n × n, row-major. */
  values: Float64Array;
  spec: MutationModelSpec;
}

/** Why a model cannot be built for these alleles, in the reader's words. */
export class MutationModelError extends Error {}

/** The allele as a number with at most one decimal (stepwise and one-step models), or NaN. */
function alleleNumber(allele: string): number {
  return /^\d+(\.\d)?$/.test(allele) ? Number(allele) : Number.NaN;
}

/**
 * R's round() to a whole number (IEC 60559: halves to the even neighbour), on a value with one decimal given as
 * whole tenths, so 9.5 rounds to 10 and 10.5 to 10 exactly as pedmut's `round(alsNum)` does.
 */
function roundHalfEvenTenths(tenths: number): number {
  const whole = Math.floor(tenths / 10);
  const rest = tenths - whole * 10;
  if (rest < 5) return whole;
  if (rest > 5) return whole + 1;
  return whole % 2 === 0 ? whole : whole + 1;
}

/** The identity: no mutation. */
function trivial(n: number): Float64Array {
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) m[i * n + i] = 1;
  return m;
}

/** pedmut "equal": stay with 1 − rate, each other allele rate/(n − 1). */
function equal(n: number, rate: number): Float64Array {
  const m = new Float64Array(n * n).fill(rate / (n - 1));
  for (let i = 0; i < n; i++) m[i * n + i] = 1 - rate;
  return m;
}

/** pedmut "proportional": M = (1 − α)I + α·1pᵀ with α = rate / Σ p(1 − p), so the overall rate is `rate`. */
function proportional(n: number, rate: number, frequencies: readonly number[]): Float64Array {
  const alpha = rate / frequencies.reduce((s, p) => s + p * (1 - p), 0);
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) m[i * n + j] = (i === j ? 1 - alpha : 0) + alpha * frequencies[j]!;
  if (m.some((v) => v > 1)) throw new MutationModelError(`The proportional model cannot reach the rate ${rate} with these frequencies; choose a lower rate.`);
  return m;
}

/**
 * pedmut "stepwise": alleles in the same microvariant group (same fractional part after R's rounding) mutate into
 * each other with weight range^|step|, scaled to sum to `rate`; into another group at rate2 shared equally; staying
 * gets the rest (1 − rate, 1 − rate2 or 1 − rate − rate2 as the groups present allow).
 */
function stepwise(alleles: readonly string[], rate: number, rate2: number, range: number): Float64Array {
  const n = alleles.length;
  const tenths = alleles.map((a) => Math.round(alleleNumber(a) * 10));
  const group = tenths.map((t) => t - roundHalfEvenTenths(t) * 10);
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const same = group.map((g) => g === group[i]);
    const sameCount = same.filter(Boolean).length;
    let sameWeight = 0;
    for (let j = 0; j < n; j++) {
      if (i === j) m[i * n + j] = sameCount === n ? 1 - rate : sameCount === 1 ? 1 - rate2 : 1 - rate - rate2;
      else if (same[j]) {
        m[i * n + j] = range ** (Math.abs(tenths[i]! - tenths[j]!) / 10);
        sameWeight += m[i * n + j]!;
      } else m[i * n + j] = rate2 / (n - sameCount);
    }
    if (sameCount > 1) for (let j = 0; j < n; j++) if (j !== i && same[j]) m[i * n + j] = (m[i * n + j]! / sameWeight) * rate;
  }
  return m;
}

/** pedmut "onestep": only to the alleles one repeat away, `rate` shared between them; no neighbour, no mutation. */
function onestep(alleles: readonly string[], rate: number): Float64Array {
  const n = alleles.length;
  const numbers = alleles.map(alleleNumber);
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const neighbours = numbers.map((x) => Math.abs(x - numbers[i]!) === 1);
    const count = neighbours.filter(Boolean).length;
    m[i * n + i] = count > 0 ? 1 - rate : 1;
    for (let j = 0; j < n; j++) if (neighbours[j]) m[i * n + j] = rate / count;
  }
  return m;
}

/** A laboratory's own matrix: square over the alleles, entries in [0, 1], rows summing to 1 (to 3 decimals, as pedmut checks). */
function custom(alleles: readonly string[], matrix: readonly (readonly number[])[]): Float64Array {
  const n = alleles.length;
  if (matrix.length !== n || matrix.some((row) => row.length !== n)) throw new MutationModelError(`A custom mutation matrix must be ${n} × ${n}, one row and column per allele (${alleles.join(', ')}).`);
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = matrix[i]![j]!;
      if (!Number.isFinite(v) || v < 0 || v > 1) throw new MutationModelError(`Custom mutation matrix entry ${alleles[i]} → ${alleles[j]} is ${v}; each entry is a probability in [0, 1].`);
      m[i * n + j] = v;
    }
    const sum = matrix[i]!.reduce((s, v) => s + v, 0);
    if (Math.round(sum * 1000) !== 1000) throw new MutationModelError(`Row ${alleles[i]} of the custom mutation matrix sums to ${sum}, not 1.`);
  }
  return m;
}

function checkRate(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new MutationModelError(`The mutation ${name} must be a number in [0, 1], not ${value}.`);
}

/**
 * The mutation matrix of a model over a marker's alleles with their frequencies (pedmut `mutationMatrix()`,
 * Vigeland 2021 "Pedigree analysis in R" ch. 5). One allele, or no mutation, gives the identity.
 */
export function mutationMatrix(spec: MutationModelSpec, alleles: readonly string[], frequencies: readonly number[]): MutationMatrix {
  // Only the proportional model reads the frequencies; the others depend on the alleles alone.
  const key = `${JSON.stringify(spec)}\u0001${alleles.join('\u0002')}${spec.model === 'proportional' ? `\u0001${frequencies.join(',')}` : ''}`;
  const cached = BUILT.get(key);
  if (cached) {
    // Most recently used last, so the oldest is the first to go.
    BUILT.delete(key);
    BUILT.set(key, cached);
    return { alleles, values: cached, spec };
  }
  const values = buildMatrix(spec, alleles, frequencies);
  BUILT.set(key, values);
  if (BUILT.size > BUILT_KEPT) BUILT.delete(BUILT.keys().next().value!);
  return { alleles, values, spec };
}

/**
 * Built matrices by model and alleles: a search, a calculator run and a report ask for the same markers' matrices
 * again and again. Shared, so never written to (lumping and every reader make new arrays).
 */
const BUILT = new Map<string, Float64Array>();
const BUILT_KEPT = 1024;

function buildMatrix(spec: MutationModelSpec, alleles: readonly string[], frequencies: readonly number[]): Float64Array {
  const n = alleles.length;
  if (frequencies.length !== n) throw new MutationModelError('Each allele of a mutation model needs its frequency.');
  if (new Set(alleles).size !== n) throw new MutationModelError('The alleles of a mutation model must differ from each other.');
  const build = (): Float64Array => {
    if (spec.model === 'custom') return custom(alleles, spec.matrix);
    if (spec.model === 'trivial' || n <= 1) return trivial(n);
    checkRate('rate', spec.rate);
    switch (spec.model) {
      case 'equal':
        return equal(n, spec.rate);
      case 'proportional':
        return proportional(n, spec.rate, frequencies);
      case 'onestep': {
        const bad = alleles.find((a) => !Number.isInteger(alleleNumber(a)));
        if (bad !== undefined) throw new MutationModelError(`The one-step model needs whole-number alleles; ${bad} is not one.`);
        return onestep(alleles, spec.rate);
      }
      case 'stepwise': {
        checkRate('rate2', spec.rate2);
        if (spec.rate + spec.rate2 > 1) throw new MutationModelError(`The stepwise rates together (rate ${spec.rate} + rate2 ${spec.rate2}) must be at most 1.`);
        if (!(spec.range > 0) || !Number.isFinite(spec.range)) throw new MutationModelError(`The stepwise range must be a positive number, not ${spec.range}.`);
        const bad = alleles.find((a) => Number.isNaN(alleleNumber(a)));
        if (bad !== undefined) throw new MutationModelError(`The stepwise model needs numbered alleles with at most one decimal (9, 9.3); ${bad} is not one.`);
        return stepwise(alleles, spec.rate, spec.rate2, spec.range);
      }
    }
  };
  return build();
}

/** The model's text as a report prints it: "stepwise, rate 0.002, rate2 1e-6, range 0.1" (pedmut's toString). */
export function describeMutationModel(spec: MutationModelSpec): string {
  switch (spec.model) {
    case 'trivial':
      return 'no mutation';
    case 'custom':
      return 'custom matrix';
    case 'stepwise':
      return `stepwise, rate ${spec.rate}, rate2 ${spec.rate2}, range ${spec.range}`;
    default:
      return `${spec.model}, rate ${spec.rate}`;
  }
}
