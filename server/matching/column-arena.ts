import { claimPages, columnMemory, memoryBytes, PAGE } from './shared-memory';

/** A column's two byte arrays (lo and hi allele indices per slot). */
export interface ColumnHalves {
  lo: Uint8Array;
  hi: Uint8Array;
}

/**
 * Where one index's marker columns live (issue 29): a shared WebAssembly memory, so every kernel and every search
 * worker reads them in place. Each column is a region of `capacity` bytes per half; a growth or a copy on write moves
 * them all to a fresh memory (snapshots keep the old one, freed with the last of them), as the SharedArrayBuffers
 * before it did.
 */
export class ColumnArena {
  memory = columnMemory();
  /** Column halves claimed and not used yet (a small index claims a page's worth at once: a page is the least a memory grows by). */
  private spare: Uint8Array[] = [];

  /** A fresh, zeroed column of `capacity` slots; `columns` (all the index holds) move to a fresh memory when this one is full. */
  column(capacity: number, columns: readonly ColumnHalves[]): ColumnHalves {
    if (this.spare.length < 2) this.claim(capacity, columns);
    return { lo: this.spare.pop()!, hi: this.spare.pop()! };
  }

  /** Moves `columns` to a fresh memory of `capacity` slots per column, copying their bytes (a growth keeps the first slots). */
  relocate(columns: readonly ColumnHalves[], capacity: number): void {
    this.memory = columnMemory();
    this.spare = [];
    if (columns.length === 0) return;
    const at = claimPages(this.memory, 2 * columns.length * capacity);
    columns.forEach((column, m) => {
      const lo = memoryBytes(this.memory, at + 2 * m * capacity, capacity);
      const hi = memoryBytes(this.memory, at + (2 * m + 1) * capacity, capacity);
      lo.set(column.lo.subarray(0, Math.min(column.lo.length, capacity)));
      hi.set(column.hi.subarray(0, Math.min(column.hi.length, capacity)));
      column.lo = lo;
      column.hi = hi;
    });
  }

  /**
   * A snapshot's column (or its slots [from, to)) as views made again over its memory in this thread, so a kernel finds
   * the memory from them and reads the bytes where they are.
   */
  static view(memory: WebAssembly.Memory, column: ColumnHalves, slice?: { from: number; to: number } | false): ColumnHalves {
    const part = (half: Uint8Array) => (slice ? memoryBytes(memory, half.byteOffset + slice.from, slice.to - slice.from) : memoryBytes(memory, half.byteOffset, half.length));
    return { lo: part(column.lo), hi: part(column.hi) };
  }

  private claim(capacity: number, columns: readonly ColumnHalves[]): void {
    const pairs = Math.max(1, Math.floor(PAGE / (2 * capacity)));
    let at: number;
    try {
      at = claimPages(this.memory, 2 * pairs * capacity);
    } catch {
      // The memory is full (4 GiB with the search threads' working room): the columns start a fresh one.
      this.relocate(columns, capacity);
      at = claimPages(this.memory, 2 * pairs * capacity);
    }
    for (let k = 2 * pairs - 1; k >= 0; k--) this.spare.push(memoryBytes(this.memory, at + k * capacity, capacity));
  }
}
