/** Every item of a list the store gives a page at a time. */
import type { Page, PageRequest } from '../store/types.ts';

/**
 * Every item of a paged list, oldest first as the store lists them: pages of 1000 until one is empty or
 * the total is reached.
 */
export async function everyPage<T>(list: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await list({ page, limit: 1000 });
    all.push(...items);
    if (items.length === 0 || all.length >= total) return all;
  }
}
