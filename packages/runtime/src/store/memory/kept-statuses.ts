import { copy } from '../copy.ts';
import type { KeptStatusPort } from '../ports.ts';
import type { MemoryState } from './state.ts';

/** The memory store's kept statuses (`state.keptStatuses`, in the order kept). */
export function memoryKeptStatuses(state: MemoryState): KeptStatusPort {
  const { keptStatuses: kept } = state;
  return {
    async keepStatuses(statuses) {
      for (const status of statuses) kept.set(status.id, copy(status));
    },
    async matchedKeptStatuses(limit) {
      const matched = [];
      for (const status of kept.values()) {
        if (matched.length >= limit) break;
        if (state.runs.hasProviderId(status.provider_message_id)) matched.push(copy(status));
      }
      return matched;
    },
    async dropKeptStatuses(ids) {
      for (const id of ids) kept.delete(id);
    },
    async expireKeptStatuses(before) {
      let expired = 0;
      for (const [id, status] of kept) {
        if (status.received_at < before) {
          kept.delete(id);
          expired++;
        }
      }
      return expired;
    },
  };
}
