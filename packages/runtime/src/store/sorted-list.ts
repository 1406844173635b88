/**
 * Records kept oldest first, for the memory store's lists: by `created_at`, then in the order they
 * were inserted (records made in one instant come back in the order they were made, as the SQL store's
 * `created_seq` keeps them). Inserting is a binary search from the end, so the usual case (the newest
 * record) costs O(log n) plus an append. The `created_at` of a kept record must not change.
 */
export class SortedList<T extends { created_at: string; id: string }> {
  readonly items: T[] = [];
  /** The insertion number of each item, beside it: the tie-break among items of one `created_at`. */
  readonly seqs: number[] = [];
  /** The insertion number the next new item gets. */
  next = 0;

  /** Number of records kept. */
  get size(): number {
    return this.items.length;
  }

  /**
   * Adds a record at its place: after every record of the same `created_at` already kept, or, given
   * the `seq` that `remove` returned for it, back where it was.
   */
  insert(item: T, seq = this.next++): void {
    const at = upperBound(this, item.created_at, seq);
    if (at === this.items.length) {
      this.items.push(item);
      this.seqs.push(seq);
    } else {
      this.items.splice(at, 0, item);
      this.seqs.splice(at, 0, seq);
    }
  }

  /** Removes the record with the id and `created_at` of `item`; its insertion number (to put it back with), or undefined when it is not kept. */
  remove(item: T): number | undefined {
    for (let at = lowerBound(this, item.created_at); at < this.items.length; at++) {
      const found = this.items[at] as T;
      if (found.created_at !== item.created_at) return undefined;
      if (found.id !== item.id) continue;
      const [seq] = this.seqs.splice(at, 1);
      this.items.splice(at, 1);
      return seq;
    }
    return undefined;
  }

  /** Puts back what `other` holds (a copy of this list, from a snapshot), keeping this list. */
  refillFrom(other: SortedList<T>): void {
    this.items.length = 0;
    this.seqs.length = 0;
    this.items.push(...other.items);
    this.seqs.push(...other.seqs);
    this.next = other.next;
  }

  /** The records of a page, oldest first. */
  slice(offset: number, limit: number): T[] {
    return this.items.slice(offset, offset + limit);
  }
}

/** The first place whose record is not older than `createdAt` (plain functions over the fields, so a copied list works: see cloneGraph). */
function lowerBound(list: { items: { created_at: string }[] }, createdAt: string): number {
  let low = 0;
  let high = list.items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list.items[mid] as { created_at: string }).created_at < createdAt) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The place of a record made at `createdAt` with insertion number `seq`: after every record before it in (created_at, seq). */
function upperBound(list: { items: { created_at: string }[]; seqs: number[] }, createdAt: string, seq: number): number {
  const before = (at: number) => {
    const probe = list.items[at] as { created_at: string };
    return probe.created_at < createdAt || (probe.created_at === createdAt && (list.seqs[at] as number) < seq);
  };
  let low = 0;
  let high = list.items.length;
  // Fast path: the newest record goes at the end.
  if (high === 0 || before(high - 1)) return high;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}
