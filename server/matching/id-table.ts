/**
 * The id → slot table of a SlotIds (GENETICS.md "How the search reaches memory speed"): open addressing with linear
 * probing and no tombstones (a removal shifts its cluster back), one 32-bit entry per bucket — slot + 1 in the low
 * bits, a fingerprint of the id's hash in the bits left over, so a probe rarely reads the id words. Sized for a slot
 * capacity: ⌈capacity / 0.875⌉ buckets, 4.6 bytes per profile. The id words live in the SlotIds' array, four per slot.
 */

import { sharedCopy, sharedUint32 } from './shared-memory';

export const WORDS = 4;
/** Most entries per bucket; the table is sized on the slot capacity, so it never holds more. */
const MAX_LOAD = 0.875;
const TWO_32 = 4294967296;

/** A 32-bit avalanche (murmur3's finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export const hashOf = (w0: number, w1: number, w2: number, w3: number): number => mix(w0 ^ mix(w1 ^ mix(w2 ^ mix(w3 ^ 0x9e3779b9))));

export class IdTable {
  readonly slotBits: number;
  readonly slotMask: number;
  readonly fingerprintMask: number;

  /** A table for slots 0 … capacity−1: a fresh empty one, or a snapshot's buckets (a worker's view). */
  constructor(
    readonly capacity: number,
    readonly buckets: Uint32Array = sharedUint32(Math.max(2, Math.ceil(Math.max(1, capacity) / MAX_LOAD))),
  ) {
    this.slotBits = 32 - Math.clz32(Math.max(1, capacity));
    this.slotMask = 2 ** this.slotBits - 1;
    this.fingerprintMask = 2 ** (32 - this.slotBits) - 1;
  }

  /** The same table over a copy of its buckets (copy-on-write under a pin). */
  copy(): IdTable {
    return new IdTable(this.capacity, sharedCopy(this.buckets, this.buckets.length, sharedUint32));
  }

  /** The slot an entry holds. */
  slotAt(position: number): number {
    return (this.buckets[position]! & this.slotMask) - 1;
  }

  /** The bucket a hash starts probing at: its high bits scaled to the table (no power-of-two sizes needed). */
  private home(hash: number): number {
    return Math.floor((hash * this.buckets.length) / TWO_32);
  }

  /** The bucket holding the id whose words are `key` (`words` holding every slot's), or −1. */
  find(key: Uint32Array, words: Uint32Array): number {
    const { buckets, slotBits, slotMask } = this;
    const k0 = key[0]!;
    const k1 = key[1]!;
    const k2 = key[2]!;
    const k3 = key[3]!;
    const hash = hashOf(k0, k1, k2, k3);
    const fingerprint = hash & this.fingerprintMask;
    let position = this.home(hash);
    for (;;) {
      const entry = buckets[position]!;
      if (entry === 0) return -1;
      if (entry >>> slotBits === fingerprint) {
        const at = ((entry & slotMask) - 1) * WORDS;
        if (words[at] === k0 && words[at + 1] === k1 && words[at + 2] === k2 && words[at + 3] === k3) return position;
      }
      if (++position === buckets.length) position = 0;
    }
  }

  /** Enters `slot` for an id of hash `hash` (not held yet). */
  insert(slot: number, hash: number): void {
    const { buckets } = this;
    let position = this.home(hash);
    while (buckets[position] !== 0) if (++position === buckets.length) position = 0;
    buckets[position] = ((hash & this.fingerprintMask) * 2 ** this.slotBits + slot + 1) >>> 0;
  }

  /** Points the entry at `position` to another slot (its id moved there). */
  setSlot(position: number, slot: number): void {
    this.buckets[position] = ((this.buckets[position]! & ~this.slotMask) | (slot + 1)) >>> 0;
  }

  /** Empties a bucket and shifts the rest of its cluster back, so probes need no tombstones; `words` give the entries' hashes. */
  deleteAt(position: number, words: Uint32Array): void {
    const { buckets } = this;
    let hole = position;
    for (let next = position; ; ) {
      if (++next === buckets.length) next = 0;
      const entry = buckets[next]!;
      if (entry === 0) break;
      const at = ((entry & this.slotMask) - 1) * WORDS;
      const home = this.home(hashOf(words[at]!, words[at + 1]!, words[at + 2]!, words[at + 3]!));
      // The entry may fill the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!stays) {
        buckets[hole] = entry;
        hole = next;
      }
    }
    buckets[hole] = 0;
  }

  /** Enters slots from … to−1 from their words. */
  insertSlots(words: Uint32Array, from: number, to: number): void {
    for (let slot = from, at = from * WORDS; slot < to; slot++, at += WORDS) this.insert(slot, hashOf(words[at]!, words[at + 1]!, words[at + 2]!, words[at + 3]!));
  }
}
