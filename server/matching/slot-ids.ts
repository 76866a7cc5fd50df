/**
 * Profile ids of an index in slot order, 16 bytes each, and the way back from an id to its slot
 * (GENETICS.md "How the search reaches memory speed"; issue 15: ≤ 64 bytes per profile in all).
 *
 * Ids are the database's UUIDs (PostgreSQL prints them lowercase): four 32-bit words per slot in one
 * Uint32Array. Any other id (a test's 'P1', an uppercase UUID) gets a small code in a side dictionary
 * and is stored as three all-ones words and the code; a UUID that would read as such a pattern
 * (ffffffff-ffff-ffff-ffff-ffff…) goes through the dictionary too, so the two never collide.
 *
 * Id → slot is an open-addressing table (linear probing, no tombstones: a removal shifts its cluster
 * back) of one 32-bit entry per bucket: slot + 1 in the low bits, a fingerprint of the id's hash in
 * the bits left over, so a probe rarely reads the id words. The table has ⌈capacity / 0.875⌉ buckets:
 * 4.6 bytes per profile, and a lookup that misses reads a few cache lines at most.
 */

import { sharedCopy, sharedUint32 } from './shared-memory';

const WORDS = 4;
const OTHER = 0xffffffff;
/** Most entries per bucket; the table is sized on the slot capacity, so it never holds more. */
const MAX_LOAD = 0.875;
const TWO_32 = 4294967296;

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** A 32-bit avalanche (murmur3's finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hashOf = (w0: number, w1: number, w2: number, w3: number): number => mix(w0 ^ mix(w1 ^ mix(w2 ^ mix(w3 ^ 0x9e3779b9))));

/** A canonical lowercase UUID's four words into `out`; false for anything else. */
function parseUuid(id: string, out: Uint32Array): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let acc = 0;
  let nibbles = 0;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
      continue;
    }
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (v < 0) return false;
    acc = (acc << 4) | v;
    if (++nibbles === 8) {
      out[word++] = acc >>> 0;
      acc = 0;
      nibbles = 0;
    }
  }
  return out[0] !== OTHER || out[1] !== OTHER || out[2] !== OTHER;
}

const hex2 = (w: number) => HEX[w >>> 24]! + HEX[(w >>> 16) & 255]!;
const hex2low = (w: number) => HEX[(w >>> 8) & 255]! + HEX[w & 255]!;

function formatUuid(w0: number, w1: number, w2: number, w3: number): string {
  return `${hex2(w0)}${hex2low(w0)}-${hex2(w1)}-${hex2low(w1)}-${hex2(w2)}-${hex2low(w2)}${hex2(w3)}${hex2low(w3)}`;
}

/** What a search worker needs to read the ids of a pinned index (the arrays are shared, the small dictionary copied). */
export interface SlotIdsSnapshot {
  count: number;
  capacity: number;
  words: Uint32Array;
  table: Uint32Array;
  otherIds: string[];
}

export class SlotIds {
  private count = 0;
  /** A slice's view: its slot 0 is the snapshot's slot `offset` (the table holds the snapshot's slots). */
  private offset = 0;
  private capacity: number;
  private words: Uint32Array;
  private table: Uint32Array = sharedUint32(0);
  private slotBits = 0;
  private slotMask = 0;
  private fingerprintMask = 0;
  /** Ids that are not canonical UUIDs: id → code, code → id, codes free for reuse. */
  private readonly otherCodes = new Map<string, number>();
  private readonly otherIds: string[] = [];
  private readonly freeCodes: number[] = [];
  /** The words of the id being looked up. */
  private readonly key = new Uint32Array(WORDS);

  constructor(capacity: number) {
    this.capacity = Math.max(1, capacity);
    this.words = sharedUint32(this.capacity * WORDS);
    this.rebuildTable();
  }

  /** The ids as they are now, over the same shared arrays: valid while no slot below `count` changes (the index copies before it edits one). */
  snapshot(): SlotIdsSnapshot {
    return { count: this.count, capacity: this.capacity, words: this.words, table: this.table, otherIds: [...this.otherIds] };
  }

  /**
   * A read-only view of a snapshot in a search worker. The owner may still append meanwhile (slots at or past
   * `count`, new table entries): a lookup that lands on such a slot answers −1, as the snapshot has no such id.
   */
  static view(snapshot: SlotIdsSnapshot, slice?: { from: number; to: number }): SlotIds {
    const ids = new SlotIds(1);
    ids.count = snapshot.count;
    if (slice) {
      ids.offset = slice.from;
      ids.count = slice.to - slice.from;
    }
    ids.capacity = snapshot.capacity;
    ids.words = snapshot.words;
    ids.table = snapshot.table;
    ids.setTableBits();
    snapshot.otherIds.forEach((id, code) => {
      ids.otherIds[code] = id;
      if (id !== '') ids.otherCodes.set(id, code);
    });
    return ids;
  }

  /** Moves the ids and table to fresh shared memory, so readers of a snapshot keep the old bytes while this edits in place. */
  detach(): void {
    this.words = sharedCopy(this.words, this.words.length, sharedUint32);
    this.table = sharedCopy(this.table, this.table.length, sharedUint32);
  }

  get size(): number {
    return this.count;
  }

  /** The id in `slot` (0 ≤ slot < size): formatted from its words, so call it for kept candidates only. */
  idAt(slot: number): string {
    const { words } = this;
    const at = (slot + this.offset) * WORDS;
    const w0 = words[at]!;
    const w1 = words[at + 1]!;
    const w2 = words[at + 2]!;
    const w3 = words[at + 3]!;
    if (w0 === OTHER && w1 === OTHER && w2 === OTHER) return this.otherIds[w3]!;
    return formatUuid(w0, w1, w2, w3);
  }

  /** The slot holding `id`, or −1. */
  slotOf(id: string): number {
    if (!this.keyOf(id, false)) return -1;
    const position = this.find();
    if (position < 0) return -1;
    const slot = (this.table[position]! & this.slotMask) - 1 - this.offset;
    // A worker's view: the owner may have appended past the snapshot since; a slice holds its own slots only.
    return slot >= 0 && slot < this.count ? slot : -1;
  }

  /** Puts an id that is not held into the next slot (size grows by one; capacity must have room) and returns the slot. */
  append(id: string): number {
    if (this.count === this.capacity) throw new Error('SlotIds: no room (resize first)');
    const slot = this.count++;
    this.keyOf(id, true);
    this.words.set(this.key, slot * WORDS);
    this.insert(slot);
    return slot;
  }

  /** Drops the id in `slot`; the last slot's id moves into it (as the index's columns do). */
  removeAt(slot: number): void {
    const { words } = this;
    const at = slot * WORDS;
    this.key.set(words.subarray(at, at + WORDS));
    this.deleteAt(this.find());
    if (words[at] === OTHER && words[at + 1] === OTHER && words[at + 2] === OTHER) {
      const code = words[at + 3]!;
      this.otherCodes.delete(this.otherIds[code]!);
      this.otherIds[code] = '';
      this.freeCodes.push(code);
    }
    const last = --this.count;
    const lastAt = last * WORDS;
    if (slot !== last) {
      this.key.set(words.subarray(lastAt, lastAt + WORDS));
      const position = this.find();
      this.table[position] = ((this.table[position]! & ~this.slotMask) | (slot + 1)) >>> 0;
      words.copyWithin(at, lastAt, lastAt + WORDS);
    }
    words.fill(0, lastAt, lastAt + WORDS);
  }

  /** Changes the room to `capacity` slots (≥ size) and rebuilds the table for it: O(size). */
  resize(capacity: number): void {
    if (capacity < this.count) throw new Error('SlotIds: capacity below size');
    this.capacity = Math.max(1, capacity);
    const words = sharedUint32(this.capacity * WORDS);
    words.set(this.words.subarray(0, this.count * WORDS));
    this.words = words;
    this.rebuildTable();
  }

  /** Bytes held: the id words and the table (spare room included). */
  bytes(): number {
    return this.words.byteLength + this.table.byteLength;
  }

  /** Sets `key` to the words of `id`; false when `id` is an unknown non-UUID and `assign` is off. */
  private keyOf(id: string, assign: boolean): boolean {
    const { key } = this;
    if (parseUuid(id, key)) return true;
    let code = this.otherCodes.get(id);
    if (code === undefined) {
      if (!assign) return false;
      code = this.freeCodes.pop() ?? this.otherIds.length;
      this.otherCodes.set(id, code);
      this.otherIds[code] = id;
    }
    key[0] = key[1] = key[2] = OTHER;
    key[3] = code;
    return true;
  }

  private hashOfSlot(slot: number): number {
    const at = slot * WORDS;
    const { words } = this;
    return hashOf(words[at]!, words[at + 1]!, words[at + 2]!, words[at + 3]!);
  }

  /** The bucket a hash starts probing at: its high bits scaled to the table (no power-of-two sizes needed). */
  private home(hash: number): number {
    return Math.floor((hash * this.table.length) / TWO_32);
  }

  /** The table position of `key`, or −1. */
  private find(): number {
    const { key, table, words, slotBits, slotMask } = this;
    const k0 = key[0]!;
    const k1 = key[1]!;
    const k2 = key[2]!;
    const k3 = key[3]!;
    const hash = hashOf(k0, k1, k2, k3);
    const fingerprint = hash & this.fingerprintMask;
    let position = this.home(hash);
    for (;;) {
      const entry = table[position]!;
      if (entry === 0) return -1;
      if (entry >>> slotBits === fingerprint) {
        const at = ((entry & slotMask) - 1) * WORDS;
        if (words[at] === k0 && words[at + 1] === k1 && words[at + 2] === k2 && words[at + 3] === k3) return position;
      }
      if (++position === table.length) position = 0;
    }
  }

  private insert(slot: number): void {
    const { table } = this;
    const hash = this.hashOfSlot(slot);
    let position = this.home(hash);
    while (table[position] !== 0) if (++position === table.length) position = 0;
    table[position] = ((hash & this.fingerprintMask) * 2 ** this.slotBits + slot + 1) >>> 0;
  }

  /** Empties a bucket and shifts the rest of its cluster back, so probes need no tombstones. */
  private deleteAt(position: number): void {
    const { table } = this;
    let hole = position;
    for (let next = position; ; ) {
      if (++next === table.length) next = 0;
      const entry = table[next]!;
      if (entry === 0) break;
      const home = this.home(this.hashOfSlot((entry & this.slotMask) - 1));
      // The entry may fill the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!stays) {
        table[hole] = entry;
        hole = next;
      }
    }
    table[hole] = 0;
  }

  private setTableBits(): void {
    this.slotBits = 32 - Math.clz32(this.capacity);
    this.slotMask = 2 ** this.slotBits - 1;
    this.fingerprintMask = 2 ** (32 - this.slotBits) - 1;
  }

  private rebuildTable(): void {
    this.setTableBits();
    this.table = sharedUint32(Math.max(2, Math.ceil(this.capacity / MAX_LOAD)));
    for (let slot = 0; slot < this.count; slot++) this.insert(slot);
  }
}
