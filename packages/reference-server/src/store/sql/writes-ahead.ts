/**
 * Writes sent ahead inside one SQL transaction, for the benchmark row webhooks.latency.p50 (the
 * addOrder answer's latency).
 *
 * A statement whose answer the transaction never reads (an advisory lock, an upsert) is sent and not
 * waited for: the next statement goes out behind it on the same connection, with no round trip in
 * between (node-postgres in pipeline mode writes a query without waiting for the answer to the one
 * before; PGlite's thread runs its queries in the order they arrive). The connection runs them in
 * order, so a later statement waits for the locks an earlier one takes and sees what it wrote, as if
 * each had been awaited.
 *
 * A write that fails leaves the transaction aborted: every statement after it fails with "current
 * transaction is aborted", and its COMMIT rolls it back. `inTransaction` throws the write's own error
 * instead, so the caller hears the reason the transaction was aborted.
 *
 * The transaction commits as soon as its work resolves: the COMMIT goes out behind the writes still
 * under way, on the same connection, and `inTransaction` resolves once they and the COMMIT are
 * answered. An order write's last writes (its customers and its event) and its COMMIT thus cost one
 * round trip, not two.
 */

/** The writes of one transaction that were sent and not yet answered. */
export interface WritesAhead {
  /** Sends `write` (already started) and resolves at once; its failure is kept for `inTransaction`. */
  send(write: Promise<unknown>): Promise<void>;
}

/**
 * Runs `body` (the work of one transaction) with writes it may send ahead, in the transaction that
 * `transaction` opens (it commits when the function it is given resolves, and rolls back when that
 * throws, as drizzle's `db.transaction` does). Resolves to the body's value once every write sent
 * and the transaction's end are answered; rejects with the first write that failed, if one did
 * (the transaction was then rolled back), else with what `body` or the transaction threw.
 */
export async function inTransaction<Tx, T>(
  transaction: (work: (tx: Tx) => Promise<T>) => Promise<T>,
  body: (tx: Tx, ahead: WritesAhead) => Promise<T>,
): Promise<T> {
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
    value = await transaction((tx) => body(tx, ahead));
  } catch (error) {
    await Promise.all(sent);
    throw failed ? failed.error : error;
  }
  await Promise.all(sent);
  if (failed) throw failed.error;
  return value;
}
