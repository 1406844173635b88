/**
 * `@engagekit/runtime/store`: what a Store implementation builds on (the reference server's SQL store
 * does): the interface and its records, and the helpers every implementation shares so they order,
 * page and copy alike.
 */

export { chunkRanges, compareChunkClaims } from '../rules/campaign-runs.ts';
export { advanceBar, type MessageStanding, repeats, standingRank } from '../rules/message-status.ts';
export { cloneGraph, copy, frozen } from './copy.ts';
export { createMemoryStore, type MemorySnapshot, type MemoryStore } from './memory/store.ts';
export type * from './ports.ts';
export { compareCreatedAt, iso, pageOffset, phoneOrdersOf, takerSlot, type WriteLease } from './shared.ts';
export * from './types.ts';
