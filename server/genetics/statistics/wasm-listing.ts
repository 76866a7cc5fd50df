/**
 * The encodings a hand-assembled WebAssembly module needs (WebAssembly Core Specification 2.0, section 5): the kernels
 * (server/matching/lookup-kernel.ts, convolution-kernel.ts) are assembled from listings at start-up, so no binary is kept
 * in the repository and no toolchain is needed.
 */

/** Unsigned LEB128, the encoding of every count and index in a module. */
export function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of n ≥ 0, the encoding of an i32.const: as unsigned, with a 0 byte more when the last byte's sign bit is set. */
export function sleb128(n: number): number[] {
  const out = leb128(n);
  return out[out.length - 1]! & 0x40 ? [...out.slice(0, -1), out[out.length - 1]! | 0x80, 0] : out;
}

/** A count followed by the items. */
export const vector = (items: number[][]) => [...leb128(items.length), ...items.flat()];
/** A section: its id, its size, its body. */
export const section = (id: number, body: number[]) => [id, ...leb128(body.length), ...body];
/** A name (ASCII). */
export const name = (text: string) => [...leb128(text.length), ...[...text].map((c) => c.charCodeAt(0))];
/** The module header: magic and version 1. */
export const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** Each listing compiled once per thread: a search worker instantiates a kernel over every memory it is given. */
const compiled = new WeakMap<Uint8Array, WebAssembly.Module>();

/** A module's exports, the memory given to it as env.memory. */
export function instantiate(module: Uint8Array<ArrayBuffer>, memory: WebAssembly.Memory): WebAssembly.Exports {
  let code = compiled.get(module);
  if (!code) compiled.set(module, (code = new WebAssembly.Module(module)));
  return new WebAssembly.Instance(code, { env: { memory } }).exports;
}

/** Grows the memory to at least `size` bytes; true when it grew (views over the old buffer are then detached). */
export function growTo(memory: WebAssembly.Memory, size: number): boolean {
  const missing = Math.ceil((size - memory.buffer.byteLength) / 65536);
  if (missing <= 0) return false;
  memory.grow(missing);
  return true;
}
