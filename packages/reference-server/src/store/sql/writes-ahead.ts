/**
 * Writes sent ahead inside one SQL transaction. It serves the benchmark row webhooks.latency.p50
 * (the addOrder answer's p50: 12.5-13.3 ms with every statement awaited, 10.8-12.6 ms with the
 * locks and upserts sent ahead, in turns; see BENCHMARKS.md, "Round two, sixth pass").
 *
 * A statement whose answer the transaction never reads (an advisory lock, an upsert) is sent and not
 * waited for: the next statement goes out behind it on the same connection, with no round trip in
 * between (node-postgres in pipeline mode writes a query without waiting for the answer to the one
 * before; PGlite's thread runs its queries in the order they arrive). The connection runs them in
 * order, so a later statement waits for the locks an earlier one takes and sees what it wrote, as if
 * each had been awaited.
 *
 * A write that fails leaves the transaction aborted: every statement after it fails with "current
 * transaction is aborted". `inTransaction` throws the write's own error instead, so the transaction
 * rolls back for the reason that aborted it, and it waits for every write it sent before the
 * transaction commits or rolls back.
 */

/** The writes of one transaction that were sent and not yet answered. */
export interface WritesAhead {
  /** Sends `write` (already started) and resolves at once; its failure is kept for `inTransaction`. */
  send(write: Promise<unknown>): Promise<void>;
}

/**
 * Runs `body` (the work of one transaction) with writes it may send ahead. Resolves to its value once
 * every write sent has been answered; rejects with the first write that failed, if one did, else with
 * what `body` threw.
 */
export async function inTransaction<T>(body: (ahead: WritesAhead) => Promise<T>): Promise<T> {
  const sent: Promise<void>[] = [];
  let failed: { error: unknown } | undefined;
  const ahead: WritesAhead = {
    send(write) {
      sent.push(
        write.then(
          () => {},
          (error: unknown) => {
            failed ??= { error };
          },
        ),
      );
      return Promise.resolve();
    },
  };
  let value: T;
  try {
    value = await body(ahead);
  } catch (error) {
    await Promise.all(sent);
    throw failed ? failed.error : error;
  }
  await Promise.all(sent);
  if (failed) throw failed.error;
  return value;
}
