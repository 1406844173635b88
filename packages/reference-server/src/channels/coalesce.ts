/**
 * Writes the statuses of webhooks that arrive together in one write (the `channel.statuses.ingest`
 * row). Every status of a campaign moves the same rows of its counts, which a write holds locked until
 * it commits: one write a webhook would apply them one commit at a time. While one batch is written, the webhooks that arrive wait and go together in the next (up to
 * `maxBatch` items); each caller resolves once its own items are stored, or rejects with its batch's error.
 */
export function coalesceWrites<T>(write: (items: T[]) => Promise<void>, maxBatch = 1000): (items: T[]) => Promise<void> {
  const queue: { items: T[]; stored: () => void; failed: (error: unknown) => void }[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    while (queue.length > 0) {
      let taken = 1;
      let size = queue[0]?.items.length ?? 0;
      while (taken < queue.length && size + (queue[taken]?.items.length ?? 0) <= maxBatch) size += queue[taken++]?.items.length ?? 0;
      const batch = queue.splice(0, taken);
      try {
        await write(batch.flatMap((b) => b.items));
        for (const b of batch) b.stored();
      } catch (error) {
        for (const b of batch) b.failed(error);
      }
    }
    writing = false;
  }

  return (items) =>
    new Promise<void>((stored, failed) => {
      queue.push({ items, stored, failed });
      if (!writing) void drain();
    });
}
