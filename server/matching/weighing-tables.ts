import type { ComparedColumn } from './genotype-lr-plan';
import type { LookupKernel } from './lookup-kernel';
import { WEIGHING_RECORD_BYTES } from './slot-weighing-kernel';

// The quantitative search's exact weighing tables in the placements pass's working room (issue 31 "Speed"), as
// slot-weighing-kernel.ts reads them: one record a marker, then its tables by allele class.

const align8 = (bytes: number) => (bytes + 7) & ~7;

/**
 * A plan's weighing tables (slot-weighing-kernel.ts): by its classes (K = count + 1, allele 0 the last class, its cells
 * not compared, code 0's the untyped value, the others 0, as the codes with allele 0 are), or by code (K = 2^shift, allele x of class x); n
 * allele → class bytes, K² f64 cells and K² compared bytes, each 8-aligned, after the record.
 */
function weighingShape(plan: ComparedColumn): { n: number; stride: number; bytes: number } {
  const n = plan.alleles ?? 1 << plan.shift;
  const stride = plan.classes ? plan.classes.count + 1 : 1 << plan.shift;
  return { n, stride, bytes: WEIGHING_RECORD_BYTES + align8(n) + 8 * stride * stride + align8(stride * stride) };
}

/** Bytes of a placement's weighing tables in the working room. */
export const weighingBytes = (plans: readonly ComparedColumn[]) => plans.reduce((sum, p) => sum + weighingShape(p).bytes, 0);

/** Writes a plan's weighing record at `record` and its tables from `at`; returns the address after them. */
export function writeWeighing(k: LookupKernel, plan: ComparedColumn, record: number, at: number): number {
  const { n, stride } = weighingShape(plan);
  const cells = stride * stride;
  const tableAt = at + align8(n);
  const comparedAt = tableAt + 8 * cells;
  k.words.set([plan.lo.byteOffset, plan.hi.byteOffset, at, stride, tableAt, comparedAt], record / 4);
  const { bytes, doubles } = k;
  if (plan.classes) {
    const { of, count, log10 } = plan.classes;
    bytes[at] = count;
    for (let x = 1; x < n; x++) bytes[at + x] = of[x]!;
    const f = tableAt / 8;
    doubles.fill(0, f, f + cells);
    bytes.fill(0, comparedAt, comparedAt + cells);
    for (let x = 0; x < count; x++) {
      for (let y = 0; y < count; y++) doubles[f + x * stride + y] = log10[x * count + y]!;
      bytes.fill(1, comparedAt + x * stride, comparedAt + x * stride + count);
    }
    doubles[f + count * stride + count] = plan.classes.untyped;
  } else {
    for (let x = 0; x < n; x++) bytes[at + x] = x;
    doubles.set(plan.table, tableAt / 8);
    bytes.set(plan.compared.subarray(0, cells), comparedAt);
  }
  return comparedAt + align8(cells);
}
