/** `search_docs`: BM25 over the docs index's entries, operations ahead of the rest at equal relevance. */
import type { DocEntry, DocsIndex } from './docs-index.ts';
import { tokenize } from './tokenize.ts';

/** One answer of a search. */
export interface SearchHit {
  entry: DocEntry;
  score: number;
}

// The usual BM25 constants: how fast repeated terms stop adding, and how much entry length counts.
const K1 = 1.2;
const B = 0.75;

/** Operations are what a question is most often after: their scores count this much more. */
const KIND_WEIGHT: Record<DocEntry['kind'], number> = { operation: 1.3, guide: 1, schema: 0.9, error: 0.9 };

/** A search over one index; the terms' document frequencies are counted once. */
export class DocsSearch {
  readonly #entries: DocEntry[];
  readonly #idf = new Map<string, number>();
  readonly #averageLength: number;

  constructor(index: DocsIndex) {
    this.#entries = index.entries;
    const df = new Map<string, number>();
    for (const entry of this.#entries) for (const term of Object.keys(entry.terms)) df.set(term, (df.get(term) ?? 0) + 1);
    const n = this.#entries.length;
    for (const [term, count] of df) this.#idf.set(term, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
    this.#averageLength = this.#entries.reduce((sum, e) => sum + e.length, 0) / Math.max(1, n);
  }

  /** The entry with this id (`operation:createCampaign`), if there is one. */
  byId(id: string): DocEntry | undefined {
    return this.#entries.find((e) => e.id === id);
  }

  /**
   * The `limit` best entries for `query`, best first; none when no word of the query is in the docs.
   * A query naming an SDK method (`campaigns.create`) puts that method's operation first.
   */
  search(query: string, limit = 5): SearchHit[] {
    const terms = [...new Set(tokenize(query))];
    const named = /\b([a-zA-Z]+\.[a-zA-Z]+)\b/.exec(query)?.[1];
    const hits: SearchHit[] = [];
    for (const entry of this.#entries) {
      let score = 0;
      for (const term of terms) {
        const tf = entry.terms[term];
        if (!tf) continue;
        const norm = tf + K1 * (1 - B + (B * entry.length) / this.#averageLength);
        score += (this.#idf.get(term) ?? 0) * ((tf * (K1 + 1)) / norm);
      }
      if (score === 0) continue;
      score *= KIND_WEIGHT[entry.kind];
      if (named && entry.kind === 'operation' && entry.methods[0] === named) score *= 3;
      hits.push({ entry, score });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
