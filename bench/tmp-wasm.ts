import { IndexSet } from '../server/matching/index-set';
import { fbi2015Population, profileGenerator } from './synthetic-profiles';
const leb = (n: number): number[] => { const out: number[] = []; do { let b = n & 0x7f; n >>>= 7; if (n !== 0) b |= 0x80; out.push(b); } while (n !== 0); return out; };
const sleb = (n: number): number[] => { const out: number[] = []; for (;;) { const b = n & 0x7f; n >>= 7; if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) { out.push(b); return out; } out.push(b | 0x80); } };
const vec = (items: number[][]) => [...leb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const str = (s: string) => [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
const I32 = 0x7f, I64 = 0x7e;
const op = { get: 0x20, set: 0x21, tee: 0x22, i32const: 0x41, add: 0x6a, shl: 0x74, or: 0x72, ltu: 0x49, eqz: 0x45, load8: 0x2d, i64load: 0x29, i64store: 0x37, i64add: 0x7c, block: 0x02, loop: 0x03, brif: 0x0d, end: 0x0b };
// addLookups(acc, table, lo, hi, shift, n) locals: i, addr
const A = { acc: 0, table: 1, lo: 2, hi: 3, shift: 4, n: 5, i: 6, addr: 7 };
const body = [
  ...leb(1), ...leb(2), I32, // 2 locals i32
  op.block, 0x40,
  op.get, A.n, op.eqz, op.brif, 0,
  op.loop, 0x40,
  op.get, A.acc, op.get, A.i, op.i32const, 3, op.shl, op.add, op.tee, A.addr,
  op.get, A.addr, op.i64load, 3, 0,
  op.get, A.table,
  op.get, A.lo, op.get, A.i, op.add, op.load8, 0, 0,
  op.get, A.shift, op.shl,
  op.get, A.hi, op.get, A.i, op.add, op.load8, 0, 0,
  op.or, op.i32const, 3, op.shl, op.add,
  op.i64load, 3, 0,
  op.i64add,
  op.i64store, 3, 0,
  op.get, A.i, op.i32const, 1, op.add, op.tee, A.i, op.get, A.n, op.ltu, op.brif, 0,
  op.end,
  op.end,
  op.end,
];
const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0]])),
  ...section(2, vec([[...str('env'), ...str('memory'), 0x02, 0x00, ...leb(1)]])),
  ...section(3, vec([leb(0)])),
  ...section(7, vec([[...str('addLookups'), 0x00, ...leb(0)]])),
  ...section(10, vec([[...leb(body.length), ...body]])),
]);
const N = 1000000;
const population = fbi2015Population();
const gen = profileGenerator(population, 1);
const set = new IndexSet();
const index = set.index('c', 'Autosomal');
index.reserve(N);
for (let i = 0; i < N; i++) set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'c', organizationId: 'o', genotypes: gen() });
const cols = index.markerColumns();
const memory = new WebAssembly.Memory({ initial: Math.ceil((N * 2 * cols.length + 20 * 65536 * 8 + 4096 * 8 + 1e6) / 65536) });
const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
const addLookups = inst.exports.addLookups as (a: number, t: number, lo: number, hi: number, s: number, n: number) => void;
const u8 = new Uint8Array(memory.buffer);
let off = 0;
const colOff = cols.map((c) => { const lo = off; u8.set(c.lo.subarray(0, N), off); off += N; const hi = off; u8.set(c.hi.subarray(0, N), off); off += N; return { lo, hi, shift: 32 - Math.clz32(c.alleles.length - 1) }; });
off = Math.ceil(off / 8) * 8;
const tabOff = colOff.map((c) => { const o = off; const t = new BigInt64Array(memory.buffer, o, 1 << (2 * c.shift)); for (let k = 0; k < t.length; k++) t[k] = BigInt(Math.floor(Math.random() * 1000)); off += t.length * 8; return o; });
const accOff = off; off += 4096 * 8;
const acc = new BigInt64Array(memory.buffer, accOff, 4096);
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  let c = 0;
  for (let start = 0; start < N; start += 4096) {
    const n = Math.min(N, start + 4096) - start;
    acc.fill(0n);
    for (let m = 0; m < cols.length; m++) addLookups(accOff, tabOff[m]!, colOff[m]!.lo + start, colOff[m]!.hi + start, colOff[m]!.shift, n);
    c += n;
  }
  const t1 = performance.now();
  let copy = 0;
  for (const col of cols) { u8.set(col.lo.subarray(0, N), 0); u8.set(col.hi.subarray(0, N), N); copy++; }
  console.log('wasm scan', (t1 - t0).toFixed(1), 'ms; copy all columns', (performance.now() - t1).toFixed(1), 'ms');
}
