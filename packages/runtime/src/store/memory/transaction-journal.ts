/**
 * While a transaction runs: how to undo each of its writes, should it throw, and what to do once it
 * commits. Outside one, each call is its own: nothing to undo, and commit hooks run at once.
 */
export class MemoryJournal {
  #undo: (() => void)[] | undefined;
  #hooks: (() => void)[] = [];

  /** Starts recording a transaction's writes. */
  begin(): void {
    this.#undo = [];
    this.#hooks = [];
  }

  /** Records how to undo a write of the running transaction (nothing outside one). */
  undoable(undo: () => void): void {
    this.#undo?.push(undo);
  }

  /** Runs `f` once the transaction commits (at once outside one). */
  committed(f: () => void): void {
    if (this.#undo) this.#hooks.push(f);
    else f();
  }

  /** Ends the transaction: undoes its writes when it failed; gives the hooks to run when it committed. */
  end(failed: boolean): (() => void)[] {
    if (failed) for (const undo of (this.#undo ?? []).reverse()) undo();
    const hooks = failed ? [] : this.#hooks;
    this.#undo = undefined;
    this.#hooks = [];
    return hooks;
  }
}
