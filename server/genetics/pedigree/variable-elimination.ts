/**
 * Exact summation of a product of factors over discrete variables by variable elimination (Zhang & Poole 1994;
 * Koller & Friedman 2009, ch. 9): the pedigree likelihood sums over every untyped allele without listing the
 * assignments one by one. Each variable has its own domain size; a factor's table is row-major, its last variable
 * changing fastest.
 */
export interface Factor {
  vars: number[];
  table: Float64Array;
}

/** Σ over the variable `v` of the product of `touching` (every factor holding v): one factor over their other variables. */
function sumOut(touching: readonly Factor[], v: number, size: readonly number[]): Factor {
  const others = [...new Set(touching.flatMap((f) => f.vars))].filter((x) => x !== v);
  const order = [...others, v];
  const dims = order.map((x) => size[x]!);
  // Each factor's stride for each position of `order` (0 where the factor does not hold that variable).
  const strides = touching.map((f) => {
    const own = new Array<number>(f.vars.length);
    let s = 1;
    for (let k = f.vars.length - 1; k >= 0; k--) {
      own[k] = s;
      s *= size[f.vars[k]!]!;
    }
    return order.map((x) => {
      const at = f.vars.indexOf(x);
      return at < 0 ? 0 : own[at]!;
    });
  });
  const resultSize = others.reduce((s, x) => s * size[x]!, 1);
  const out = new Float64Array(resultSize);
  const m = order.length;
  const t = touching.length;
  const digit = new Int32Array(m);
  const index = new Int32Array(t);
  const tables = touching.map((f) => f.table);
  // Flat strides: stride[f·m + k]; the innermost digit (v) apart.
  const stride = new Int32Array(t * m);
  const vStride = new Int32Array(t);
  for (let f = 0; f < t; f++) {
    for (let k = 0; k < m; k++) stride[f * m + k] = strides[f]![k]!;
    vStride[f] = strides[f]![m - 1]!;
  }
  const vSize = dims[m - 1]!;
  // Two or three factors (nearly every elimination of a pedigree): the same products in the same order, read from
  // locals, not through the per-factor arrays.
  const [t0, t1, t2] = [tables[0]!, tables[1] ?? tables[0]!, tables[2] ?? tables[0]!];
  const [s0, s1, s2] = [vStride[0]!, vStride[1] ?? 0, vStride[2] ?? 0];
  for (let at = 0; at < resultSize; at++) {
    // The innermost digit is v: sum over it here.
    let sum = 0;
    if (t === 2) {
      for (let value = 0, i0 = index[0]!, i1 = index[1]!; value < vSize; value++, i0 += s0, i1 += s1) {
        const a = t0[i0]!;
        if (a !== 0) sum += a * t1[i1]!;
      }
    } else if (t === 3) {
      for (let value = 0, i0 = index[0]!, i1 = index[1]!, i2 = index[2]!; value < vSize; value++, i0 += s0, i1 += s1, i2 += s2) {
        const a = t0[i0]!;
        if (a === 0) continue;
        const ab = a * t1[i1]!;
        if (ab !== 0) sum += ab * t2[i2]!;
      }
    } else {
      for (let value = 0; value < vSize; value++) {
        let product = 1;
        for (let f = 0; f < t; f++) {
          product *= tables[f]![index[f]! + value * vStride[f]!]!;
          if (product === 0) break;
        }
        sum += product;
      }
    }
    out[at] = sum;
    // Next assignment of the other variables (odometer, last fastest).
    for (let k = m - 2; k >= 0; k--) {
      if (++digit[k]! < dims[k]!) {
        for (let f = 0; f < t; f++) index[f]! += stride[f * m + k]!;
        break;
      }
      for (let f = 0; f < t; f++) index[f]! -= stride[f * m + k]! * (dims[k]! - 1);
      digit[k] = 0;
    }
  }
  return { vars: others, table: out };
}

/**
 * Σ over every assignment of every variable of Π factors, exactly. Variables are eliminated greedily, each time
 * the one whose new factor is smallest (the min-size heuristic), so a pedigree's cost follows its loops, not its size.
 */
export function sumProduct(factors: readonly Factor[], size: readonly number[]): number {
  return marginal(factors, size, [])[0]!;
}

/**
 * Σ over every variable but `keep` of Π factors: a table over `keep` (row-major, the last fastest), exactly. The
 * kept variables are never eliminated; the factors left at the end are multiplied out over them.
 */
export function marginal(factors: readonly Factor[], size: readonly number[], keep: readonly number[]): Float64Array {
  const pool = eliminateAllBut(factors, size, new Set(keep));
  const out = new Float64Array(keep.reduce((s, v) => s * size[v]!, 1)).fill(1);
  const digits = new Array<number>(keep.length).fill(0);
  // Each factor's variables as positions among `keep`, looked up once.
  const positions = pool.map((f) => f.vars.map((v) => keep.indexOf(v)));
  for (let at = 0; at < out.length; at++) {
    for (let k = 0; k < pool.length; k++) {
      const f = pool[k]!;
      let index = 0;
      for (let j = 0; j < f.vars.length; j++) index = index * size[f.vars[j]!]! + digits[positions[k]![j]!]!;
      out[at]! *= f.table[index]!;
    }
    for (let k = keep.length - 1; k >= 0; k--) {
      if (++digits[k]! < size[keep[k]!]!) break;
      digits[k] = 0;
    }
  }
  return out;
}

function eliminateAllBut(factors: readonly Factor[], size: readonly number[], keep: ReadonlySet<number>): Factor[] {
  let pool = [...factors];
  const remaining = new Set(pool.flatMap((f) => f.vars).filter((v) => !keep.has(v)));
  // Which variables the candidate's new factor would hold: a stamp per variable instead of a Set per candidate.
  const stamp = new Int32Array(size.length);
  let round = 0;
  while (remaining.size > 0) {
    let best = -1;
    let bestCost = Infinity;
    for (const v of remaining) {
      round++;
      let cost = 1;
      for (const f of pool) {
        if (!f.vars.includes(v)) continue;
        for (const x of f.vars) {
          if (stamp[x] === round) continue;
          stamp[x] = round;
          cost *= size[x]!;
        }
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = v;
      }
    }
    const touching = pool.filter((f) => f.vars.includes(best));
    pool = [...pool.filter((f) => !f.vars.includes(best)), sumOut(touching, best, size)];
    remaining.delete(best);
  }
  return pool;
}
