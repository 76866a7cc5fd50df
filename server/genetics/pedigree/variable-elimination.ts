import { packed } from './packed-array';

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

/**
 * One marker's tables come from one growing buffer, reset per likelihood: a pedigree's tables are small and many, and
 * a fresh Float64Array each costs more than the sums it holds. A table lives until the next `resetScratch`; a grown
 * buffer leaves the earlier tables on the old one, still valid.
 */
const FIRST_CELLS = 1 << 16;
/** Most cells kept between computations (8 MB): a large pedigree's buffer is let go, not held by the server for good. */
const KEPT_CELLS = 1 << 20;
let buffer = new Float64Array(FIRST_CELLS);
let used = 0;

/** Starts a computation: every table handed out before is given up. */
export function resetScratch(): void {
  used = 0;
  if (buffer.length > KEPT_CELLS) buffer = new Float64Array(FIRST_CELLS);
}

/** A zeroed table of `length` cells, valid until the next `resetScratch`. */
export function scratchTable(length: number): Float64Array {
  if (used + length > buffer.length) {
    buffer = new Float64Array(Math.max(buffer.length * 2, length));
    used = 0;
  }
  const table = buffer.subarray(used, used + length);
  used += length;
  table.fill(0);
  return table;
}

/** Integers for one elimination's odometer, zeroed, valid until the next call. */
let intBuffer = new Int32Array(256);
function intScratch(length: number): Int32Array {
  if (intBuffer.length < length) intBuffer = new Int32Array(Math.max(length, intBuffer.length * 2));
  intBuffer.fill(0, 0, length);
  return intBuffer;
}

/** A stamp per variable, to list a set of variables without a Set: variable x is in the current set when stamp[x] === round. */
let stamp = new Int32Array(64);
let round = 0;
function nextRound(variables: number): Int32Array {
  if (stamp.length < variables) stamp = new Int32Array(Math.max(variables, stamp.length * 2));
  if (++round === 0x7fffffff) {
    stamp.fill(0);
    round = 1;
  }
  return stamp;
}

/** Σ over the variable `v` of the product of `touching` (every factor holding v): one factor over their other variables. */
function sumOut(touching: readonly Factor[], v: number, size: readonly number[]): Factor {
  const t = touching.length;
  // The other variables, in the order the factors list them.
  const seen = nextRound(size.length);
  const r = round;
  const others: number[] = [];
  for (let f = 0; f < t; f++) {
    const vars = touching[f]!.vars;
    for (let k = 0; k < vars.length; k++) {
      const x = vars[k]!;
      if (x !== v && seen[x] !== r) {
        seen[x] = r;
        others.push(x);
      }
    }
  }
  const m = others.length + 1;
  // The odometer's integers in one reused array (an elimination makes many small ones otherwise): the digits' sizes
  // dims[k], each factor's stride for each digit stride[f·m + k] (0 where it lacks that variable; v is digit m − 1),
  // v's stride per factor, the digits and each factor's index.
  const D = 0;
  const S = m;
  const VS = S + t * m;
  const DG = VS + t;
  const IX = DG + m;
  const ints = intScratch(IX + t);
  let resultSize = 1;
  for (let k = 0; k < m - 1; k++) resultSize *= ints[D + k] = size[others[k]!]!;
  const vSize = (ints[D + m - 1] = size[v]!);
  for (let f = 0; f < t; f++) {
    const vars = touching[f]!.vars;
    let s = 1;
    for (let j = vars.length - 1; j >= 0; j--) {
      const x = vars[j]!;
      const at = x === v ? m - 1 : others.indexOf(x);
      ints[S + f * m + at] = s;
      s *= size[x]!;
    }
    ints[VS + f] = ints[S + f * m + m - 1]!;
  }
  const out = scratchTable(resultSize);
  // Two or three factors (nearly every elimination of a pedigree): the same products in the same order, read from
  // locals, not through the factors.
  const t0 = touching[0]!.table;
  const t1 = t > 1 ? touching[1]!.table : t0;
  const t2 = t > 2 ? touching[2]!.table : t0;
  const s0 = ints[VS]!;
  const s1 = t > 1 ? ints[VS + 1]! : 0;
  const s2 = t > 2 ? ints[VS + 2]! : 0;
  for (let at = 0; at < resultSize; at++) {
    // The innermost digit is v: sum over it here.
    let sum = 0;
    if (t === 2) {
      for (let value = 0, i0 = ints[IX]!, i1 = ints[IX + 1]!; value < vSize; value++, i0 += s0, i1 += s1) {
        const a = t0[i0]!;
        if (a !== 0) sum += a * t1[i1]!;
      }
    } else if (t === 3) {
      for (let value = 0, i0 = ints[IX]!, i1 = ints[IX + 1]!, i2 = ints[IX + 2]!; value < vSize; value++, i0 += s0, i1 += s1, i2 += s2) {
        const a = t0[i0]!;
        if (a === 0) continue;
        const ab = a * t1[i1]!;
        if (ab !== 0) sum += ab * t2[i2]!;
      }
    } else {
      for (let value = 0; value < vSize; value++) {
        let product = 1;
        for (let f = 0; f < t; f++) {
          product *= touching[f]!.table[ints[IX + f]! + value * ints[VS + f]!]!;
          if (product === 0) break;
        }
        sum += product;
      }
    }
    out[at] = sum;
    // Next assignment of the other variables (odometer, last fastest).
    for (let k = m - 2; k >= 0; k--) {
      if (++ints[DG + k]! < ints[D + k]!) {
        for (let f = 0; f < t; f++) ints[IX + f]! += ints[S + f * m + k]!;
        break;
      }
      for (let f = 0; f < t; f++) ints[IX + f]! -= ints[S + f * m + k]! * (ints[D + k]! - 1);
      ints[DG + k] = 0;
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
  const pool = eliminateAllBut(factors, size, keep);
  let length = 1;
  for (const v of keep) length *= size[v]!;
  const out = new Float64Array(length).fill(1);
  const digits = new Int32Array(keep.length);
  // Each factor's variables as positions among `keep`, looked up once.
  const positions = packed(pool.length, (k) => packed(pool[k]!.vars.length, (j) => keep.indexOf(pool[k]!.vars[j]!)));
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

function eliminateAllBut(factors: readonly Factor[], size: readonly number[], keep: readonly number[]): Factor[] {
  // The pool as slots in order (an eliminated factor's slot emptied, a new one appended), and each variable's slots:
  // the heuristic reads only the factors holding a variable, and the products keep the pool's order. Indexed loops
  // and lists changed in place: this runs twice per marker, and its garbage outweighed its sums.
  // A variable with one value sums out of each factor alone: dropped from the factors' lists (a row-major table's
  // layout does not change), it links none of them, so typed founders never join their children's factors.
  const kept = nextRound(size.length);
  const k0 = round;
  for (let i = 0; i < keep.length; i++) kept[keep[i]!] = k0;
  const pool: (Factor | undefined)[] = [];
  for (let k = 0; k < factors.length; k++) {
    const f = factors[k]!;
    let drop = false;
    for (let j = 0; j < f.vars.length; j++) if (size[f.vars[j]!] === 1 && kept[f.vars[j]!] !== k0) drop = true;
    if (!drop) {
      pool.push(f);
      continue;
    }
    const vars: number[] = [];
    for (let j = 0; j < f.vars.length; j++) if (size[f.vars[j]!] !== 1 || kept[f.vars[j]!] === k0) vars.push(f.vars[j]!);
    pool.push({ vars, table: f.table });
  }
  const slotsOf: number[][] = [];
  for (let v = 0; v < size.length; v++) slotsOf.push([]);
  // The variables to eliminate, in the order the factors first name them (the heuristic's ties go to the first).
  const listed = nextRound(size.length);
  const r = round;
  for (let i = 0; i < keep.length; i++) listed[keep[i]!] = r;
  const remaining: number[] = [];
  for (let k = 0; k < pool.length; k++) {
    const vars = pool[k]!.vars;
    for (let j = 0; j < vars.length; j++) {
      const x = vars[j]!;
      slotsOf[x]!.push(k);
      if (listed[x] !== r) {
        listed[x] = r;
        remaining.push(x);
      }
    }
  }
  while (remaining.length > 0) {
    let best = -1;
    let bestAt = -1;
    let bestCost = Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const v = remaining[i]!;
      // The size of the factor eliminating v would make: the product of the sizes of every variable its factors hold.
      const inFactor = nextRound(size.length);
      const q = round;
      let cost = 1;
      const slots = slotsOf[v]!;
      for (let s = 0; s < slots.length; s++) {
        const vars = pool[slots[s]!]!.vars;
        for (let j = 0; j < vars.length; j++) {
          const x = vars[j]!;
          if (inFactor[x] === q) continue;
          inFactor[x] = q;
          cost *= size[x]!;
        }
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = v;
        bestAt = i;
      }
    }
    const slots = slotsOf[best]!;
    const touching: Factor[] = [];
    for (let s = 0; s < slots.length; s++) {
      const k = slots[s]!;
      const f = pool[k]!;
      touching.push(f);
      pool[k] = undefined;
      for (let j = 0; j < f.vars.length; j++) {
        const x = f.vars[j]!;
        if (x !== best) removeFrom(slotsOf[x]!, k);
      }
    }
    slots.length = 0;
    const made = sumOut(touching, best, size);
    for (let j = 0; j < made.vars.length; j++) slotsOf[made.vars[j]!]!.push(pool.length);
    pool.push(made);
    removeAt(remaining, bestAt);
  }
  const left: Factor[] = [];
  for (let k = 0; k < pool.length; k++) if (pool[k] !== undefined) left.push(pool[k]!);
  return left;
}

/** Removes the value `value` from `list` in place, keeping the order of the rest. */
function removeFrom(list: number[], value: number): void {
  const at = list.indexOf(value);
  if (at >= 0) removeAt(list, at);
}

/** Removes list[at] in place, keeping the order of the rest. */
function removeAt(list: number[], at: number): void {
  for (let i = at; i < list.length - 1; i++) list[i] = list[i + 1]!;
  list.length--;
}
