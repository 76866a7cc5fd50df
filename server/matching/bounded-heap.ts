/**
 * The best `capacity` items offered, in O(log capacity) per offer and O(capacity) memory: a binary heap with the
 * worst kept item at its root, so a scan that finds a million candidates keeps only the ones it may show.
 * `better(a, b)` < 0 when a ranks before b; it must be a total order (ties broken, e.g. by id) for the kept set to
 * be the same whatever order the items come in.
 */
export class BoundedHeap<T> {
  private readonly items: T[] = [];

  constructor(
    readonly capacity: number,
    private readonly better: (a: T, b: T) => number,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** Whether an item ranking like `probe` would be kept now (the heap has room, or it beats the worst kept). */
  wouldKeep(probe: (worst: T) => boolean): boolean {
    return this.items.length < this.capacity || (this.capacity > 0 && probe(this.items[0]!));
  }

  offer(item: T): void {
    if (this.capacity === 0) return;
    if (this.items.length < this.capacity) {
      this.items.push(item);
      this.up(this.items.length - 1);
    } else if (this.better(item, this.items[0]!) < 0) {
      this.items[0] = item;
      this.down(0);
    }
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.items].sort(this.better);
  }

  // The root is the worst: a parent ranks after its children.
  private up(i: number): void {
    const { items } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.better(items[parent]!, items[i]!) >= 0) return;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const { items } = this;
    for (;;) {
      let worst = i;
      for (const child of [2 * i + 1, 2 * i + 2]) if (child < items.length && this.better(items[child]!, items[worst]!) > 0) worst = child;
      if (worst === i) return;
      [items[worst], items[i]] = [items[i]!, items[worst]!];
      i = worst;
    }
  }
}
