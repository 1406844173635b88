import { compareCreated } from './shared.ts';

/**
 * Records kept oldest first (by `created_at`, then id), for the memory store's lists. Inserting is a
 * binary search from the end, so the usual case (the newest record) costs O(log n) plus an append.
 * The sort key of a kept record must not change.
 */
export class SortedList<T extends { created_at: string; id: string }> {
  readonly items: T[] = [];

  /** Number of records kept. */
  get size(): number {
    return this.items.length;
  }

  /** Adds a record at its place. */
  insert(item: T): void {
    const at = lowerBound(this.items, item);
    if (at === this.items.length) this.items.push(item);
    else this.items.splice(at, 0, item);
  }

  /** Removes the record with the same sort key; false when it is not kept. */
  remove(item: T): boolean {
    const at = lowerBound(this.items, item);
    const found = this.items[at];
    if (!found || compareCreated(found, item) !== 0) return false;
    this.items.splice(at, 1);
    return true;
  }

  /** The records of a page, oldest first. */
  slice(offset: number, limit: number): T[] {
    return this.items.slice(offset, offset + limit);
  }
}

/** Where `item` goes in `items`, kept oldest first (a plain function, so a copied list works: see cloneGraph). */
function lowerBound<T extends { created_at: string; id: string }>(items: T[], item: T): number {
  let low = 0;
  let high = items.length;
  // Fast path: the newest record goes at the end.
  const last = items[high - 1];
  if (!last || compareCreated(last, item) < 0) return high;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const probe = items[mid] as T;
    if (compareCreated(probe, item) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
