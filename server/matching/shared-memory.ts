/**
 * Typed arrays over SharedArrayBuffer (ARCHITECTURE.md "Using every core"): the index's columns live in
 * memory every search worker reads without a copy; a worker is handed the buffers, never their bytes.
 */
import { randomUUID } from 'node:crypto';

export const sharedBytes = (length: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(length));

export const sharedUint16 = (length: number): Uint16Array => new Uint16Array(new SharedArrayBuffer(length * Uint16Array.BYTES_PER_ELEMENT));

export const sharedUint32 = (length: number): Uint32Array => new Uint32Array(new SharedArrayBuffer(length * Uint32Array.BYTES_PER_ELEMENT));

/** A copy of `source` in fresh shared memory of `length` elements (growth, or a copy-on-write before an in-place edit). */
export function sharedCopy<T extends Uint8Array | Uint16Array | Uint32Array>(source: T, length: number, make: (length: number) => T): T {
  const out = make(length);
  out.set(source.subarray(0, Math.min(source.length, length)) as never);
  return out;
}

/** A WebAssembly page: memories grow by whole pages. */
export const PAGE = 65_536;
/**
 * A column memory's maximum, in pages: the whole 32-bit address space (4 GiB). A shared memory must state one and never
 * moves, so the engine reserves it up front — address space only (on a 64-bit host V8 reserves that much per memory
 * anyway, for its guard regions), pages are committed as they are grown into. Reserving by the index's capacity instead
 * would make every growth a new memory, which the index's layout (one region per column, sized by capacity) needs anyway,
 * so nothing would be saved but the ability of search threads to claim their working room in place.
 */
const MAX_PAGES = 65_536;

/** The memory a view over a column memory's buffer belongs to, per buffer object (each thread registers its own views). */
const memoryOfBuffer = new WeakMap<ArrayBufferLike, WebAssembly.Memory>();

/**
 * A shared WebAssembly memory for an index's columns (issue 29): every kernel and every search worker reads the columns
 * in place, where they are, without a copy into a kernel's own memory.
 */
export function columnMemory(): WebAssembly.Memory {
  const memory = new WebAssembly.Memory({ initial: 0, maximum: MAX_PAGES, shared: true });
  keyOfMemory.set(memory, randomUUID());
  return memory;
}

/** Each column memory's name, the same in every thread: a memory sent to a worker arrives as a new object each time. */
const keyOfMemory = new WeakMap<WebAssembly.Memory, string>();

/** The name of a column memory made in this thread ({@link columnMemory}), or of one a worker adopted. */
export function memoryKey(memory: WebAssembly.Memory): string {
  let key = keyOfMemory.get(memory);
  if (key === undefined) keyOfMemory.set(memory, (key = randomUUID()));
  return key;
}

/** The column memories this thread's latest search read, by name, as first received. */
let adopted = new Map<string, WebAssembly.Memory>();

/**
 * The object this thread already holds for the column memory named `key` (`memory` when it holds none): a kernel and
 * its working room are made once per memory object, so a worker that made a fresh one for every search would compile
 * its kernels and claim new working room (growing the memory) on every search.
 */
export function adoptMemory(key: string, memory: WebAssembly.Memory): WebAssembly.Memory {
  const held = adopted.get(key);
  if (held) return held;
  keyOfMemory.set(memory, key);
  adopted.set(key, memory);
  return memory;
}

/** Forgets the adopted memories but those named (the current search's), so a memory the index left is freed. */
export function keepAdopted(keys: readonly string[]): void {
  adopted = new Map(keys.flatMap((key) => (adopted.has(key) ? [[key, adopted.get(key)!] as const] : [])));
}

/**
 * Claims `bytes` (whole pages) at the end of the memory for the caller alone and returns their address: a grow is
 * atomic, so owners adding columns and search threads taking working room never overlap. Throws a RangeError when
 * the memory is full.
 */
export const claimPages = (memory: WebAssembly.Memory, bytes: number): number => memory.grow(Math.ceil(bytes / PAGE)) * PAGE;

/** Bytes `at` … `at + length` of the memory, as a view a kernel can find the memory from ({@link memoryOf}). */
export function memoryBytes(memory: WebAssembly.Memory, at: number, length: number): Uint8Array {
  const buffer = memory.buffer;
  memoryOfBuffer.set(buffer, memory);
  return new Uint8Array(buffer, at, length);
}

/** The column memory a view was made over in this thread (by {@link memoryBytes}), or undefined. */
export const memoryOf = (view: ArrayBufferView): WebAssembly.Memory | undefined => memoryOfBuffer.get(view.buffer);
