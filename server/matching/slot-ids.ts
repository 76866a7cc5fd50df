/**
 * Profile ids of an index in slot order, 16 bytes each, and the way back from an id to its slot
 * (GENETICS.md "How the search reaches memory speed"; issue 15: ≤ 64 bytes per profile in all).
 *
 * Ids are the database's UUIDs (PostgreSQL prints them lowercase): four 32-bit words per slot in one
 * Uint32Array. Any other id (a test's 'P1', an uppercase UUID) gets a small code in a side dictionary
 * and is stored as three all-ones words and the code; a UUID that would read as such a pattern
 * (ffffffff-ffff-ffff-ffff-ffff…) goes through the dictionary too, so the two never collide.
 *
 * Id → slot is an IdTable (open addressing, 4.6 bytes per profile). A growth needs a table for the new
 * capacity; rebuilding it at once took 170 ms of the request thread at 1M profiles (issue 29), so the
 * next table is built ahead, a few dozen slots with every append or removal once the room runs low
 * (an incremental rehash), and is ready when the growth comes.
 */

import { hashOf, IdTable, WORDS } from './id-table';
import { sharedCopy, sharedUint32 } from './shared-memory';

const OTHER = 0xffffffff;
/** Slots the next table takes in with each append or removal while it is built. */
const MIGRATE_STEP = 128;

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

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
  /** The slots the table is sized for (its entries' layout): at least `capacity`, more once the next table is in. */
  tableCapacity: number;
  otherIds: string[];
}

export class SlotIds {
  private count = 0;
  /** A slice's view: its slot 0 is the snapshot's slot `offset` (the table holds the snapshot's slots). */
  private offset = 0;
  private capacity: number;
  private words: Uint32Array;
  private table: IdTable;
  /** The table for the next capacity while it is built: it holds slots 0 … cursor−1 as they are now. */
  private next: { table: IdTable; cursor: number } | null = null;
  /** Ids that are not canonical UUIDs: id → code, code → id, codes free for reuse. */
  private readonly otherCodes = new Map<string, number>();
  private readonly otherIds: string[] = [];
  private readonly freeCodes: number[] = [];
  /** The words of the id being looked up. */
  private readonly key = new Uint32Array(WORDS);

  constructor(capacity: number) {
    this.capacity = Math.max(1, capacity);
    this.words = sharedUint32(this.capacity * WORDS);
    this.table = new IdTable(this.capacity);
  }

  /** The ids as they are now, over the same shared arrays: valid while no slot below `count` changes (the index copies before it edits one). */
  snapshot(): SlotIdsSnapshot {
    return { count: this.count, capacity: this.capacity, words: this.words, table: this.table.buckets, tableCapacity: this.table.capacity, otherIds: [...this.otherIds] };
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
    ids.table = new IdTable(snapshot.tableCapacity, snapshot.table);
    snapshot.otherIds.forEach((id, code) => {
      ids.otherIds[code] = id;
      if (id !== '') ids.otherCodes.set(id, code);
    });
    return ids;
  }

  /** Moves the ids and table to fresh shared memory, so readers of a snapshot keep the old bytes while this edits in place. */
  detach(): void {
    this.words = sharedCopy(this.words, this.words.length, sharedUint32);
    this.table = this.table.copy();
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
    const position = this.table.find(this.key, this.words);
    if (position < 0) return -1;
    const slot = this.table.slotAt(position) - this.offset;
    // A worker's view: the owner may have appended past the snapshot since; a slice holds its own slots only.
    return slot >= 0 && slot < this.count ? slot : -1;
  }

  /** Puts an id that is not held into the next slot (size grows by one; capacity must have room) and returns the slot. */
  append(id: string): number {
    if (this.count === this.capacity) throw new Error('SlotIds: no room (resize first)');
    const slot = this.count++;
    this.keyOf(id, true);
    this.words.set(this.key, slot * WORDS);
    const { key } = this;
    this.table.insert(slot, hashOf(key[0]!, key[1]!, key[2]!, key[3]!));
    this.migrate();
    return slot;
  }

  /** Drops the id in `slot`; the last slot's id moves into it (as the index's columns do). */
  removeAt(slot: number): void {
    const { words, key, table, next } = this;
    const at = slot * WORDS;
    key.set(words.subarray(at, at + WORDS));
    table.deleteAt(table.find(key, words), words);
    // The next table holds the slots under its cursor: it loses the id too.
    if (next && slot < next.cursor) next.table.deleteAt(next.table.find(key, words), words);
    if (words[at] === OTHER && words[at + 1] === OTHER && words[at + 2] === OTHER) {
      const code = words[at + 3]!;
      this.otherCodes.delete(this.otherIds[code]!);
      this.otherIds[code] = '';
      this.freeCodes.push(code);
    }
    const last = --this.count;
    const lastAt = last * WORDS;
    if (slot !== last) {
      key.set(words.subarray(lastAt, lastAt + WORDS));
      table.setSlot(table.find(key, words), slot);
      if (next && last < next.cursor) next.table.setSlot(next.table.find(key, words), slot);
      // The moved id lands under the cursor: the next table takes it in now (its words are still at `last`).
      else if (next && slot < next.cursor) next.table.insert(slot, hashOf(key[0]!, key[1]!, key[2]!, key[3]!));
      words.copyWithin(at, lastAt, lastAt + WORDS);
    }
    words.fill(0, lastAt, lastAt + WORDS);
    if (next) next.cursor = Math.min(next.cursor, this.count);
    this.migrate();
  }

  /**
   * Starts building the table for `capacity` slots ahead of a growth to it (the owner calls this when the room runs
   * low): from now on each append or removal takes MIGRATE_STEP more slots into it, and it replaces the current
   * table once it holds every slot.
   */
  prepareTable(capacity: number): void {
    if (capacity <= this.table.capacity || (this.next && this.next.table.capacity >= capacity)) return;
    this.next = { table: new IdTable(capacity), cursor: 0 };
  }

  /** One step of building the next table; the switch once it holds every slot. */
  private migrate(steps = MIGRATE_STEP): void {
    const { next } = this;
    if (!next) return;
    const to = Math.min(this.count, next.cursor + steps);
    next.table.insertSlots(this.words, next.cursor, to);
    next.cursor = to;
    if (next.cursor === this.count) {
      this.table = next.table;
      this.next = null;
    }
  }

  /**
   * Changes the room to `capacity` slots (≥ size): the ids are copied, and the table is the one built ahead for this
   * capacity (finished now if a few slots are left), or else rebuilt for it at once, O(size).
   */
  resize(capacity: number): void {
    if (capacity < this.count) throw new Error('SlotIds: capacity below size');
    this.capacity = Math.max(1, capacity);
    const words = sharedUint32(this.capacity * WORDS);
    words.set(this.words.subarray(0, this.count * WORDS));
    this.words = words;
    if (this.next?.table.capacity === this.capacity) this.migrate(Infinity);
    if (this.table.capacity !== this.capacity) {
      this.next = null;
      this.table = new IdTable(this.capacity);
      this.table.insertSlots(this.words, 0, this.count);
    }
  }

  /** Bytes held: the id words and the tables (spare room included). */
  bytes(): number {
    return this.words.byteLength + this.table.buckets.byteLength + (this.next?.table.buckets.byteLength ?? 0);
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
}
