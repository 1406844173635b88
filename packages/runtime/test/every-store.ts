/**
 * The stores every shared suite runs on (the store conformance suite, the domain's tests). The
 * runtime's own test project runs them on the memory store. A package with stores of its own (the
 * reference server's PGlite and PostgreSQL stores) names them with `runSuitesOn` in a setup file of
 * its test project, which then runs the same suite files on those.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import { createMemoryStore } from '../src/store/memory/store.ts';
import type { Store } from '../src/store/ports.ts';

/** Which store a suite runs on. */
export type StoreKind = 'memory' | 'pglite' | 'postgres';

/** A kind of store the suites run on, and how each test gets an empty one. */
export interface StoreKindSetup {
  kind: StoreKind;
  /** Names the describe block: `on the <label>`. */
  label: string;
  /** Why the kind cannot run here (the block is skipped, saying so); undefined when it can. */
  skip?: string | undefined;
  /**
   * Called inside the kind's describe block: registers the hooks the kind needs (one database for the
   * block, say) and returns the maker of an empty store for the test about to run.
   */
  setUp(): () => Promise<Store>;
}

const memory: StoreKindSetup = { kind: 'memory', label: 'memory store', setUp: () => async () => createMemoryStore() };
let kinds: StoreKindSetup[] = [memory];

/** Runs the shared suites of this test project on `setups` instead of the memory store. */
export function runSuitesOn(setups: StoreKindSetup[]): void {
  kinds = setups;
}

/** Calls `register` once per store kind, inside a describe of its own; `makeStore` gives an empty store for the test about to run. */
export function forEveryStore(register: (kind: StoreKind, makeStore: () => Promise<Store>) => void): void {
  for (const setup of kinds) {
    describe.skipIf(setup.skip !== undefined)(`on the ${setup.label}${setup.skip ? ` (skipped: ${setup.skip})` : ''}`, () => {
      register(setup.kind, setup.setUp());
    });
  }
}

/** For a suite's tests: an empty store of each kind before each test, closed after it; `store()` is the current one. */
export function eachTestStore(makeStore: () => Promise<Store>): () => Store {
  let current: Store | undefined;
  beforeEach(async () => {
    current = await makeStore();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('No store: the test has not started.');
    return current;
  };
}
