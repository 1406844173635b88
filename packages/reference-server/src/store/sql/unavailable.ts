/**
 * The database being unavailable, told apart from every other failure: the API answers it 503
 * `database_unavailable` with `Retry-After` (the runtime's `StoreUnavailableError`), never 500.
 */
import { type Store, StoreUnavailableError } from '@engagekit/runtime/store';

/**
 * Seconds a caller is told to wait: a whole number from 1 to 4, drawn for each answer, so that the
 * clients of every instance, failed by one outage at one moment, do not all retry at the same moment.
 * Long enough for a pool to drain or a server to come back, short enough to retry soon.
 */
export function retryAfterS(random: () => number = Math.random): number {
  return 1 + Math.min(3, Math.floor(random() * 4));
}

/** SQLSTATEs of a server that will not take the connection or lost it: too many clients, starting up or shutting down, connection exceptions (class 08). */
const UNAVAILABLE_CODES = /^(53300|57P01|57P02|57P03|08...)$/;
/** Socket errors of a server that cannot be reached. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);
/**
 * node-postgres's messages for a pool that stayed full past its wait, a connection attempt that timed
 * out, a connection lost mid-query, and a statement sent on a connection already lost.
 */
const POOL_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout|Connection terminated unexpectedly|Connection terminated|Client has encountered a connection error and is not queryable)$/;

/** Why `error` (or an error it was caused by, as drizzle wraps them) says the database is unavailable; undefined when it does not. */
export function unavailableReason(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof StoreUnavailableError) return e.message;
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.test(code) || SOCKET_CODES.has(code))) return `${code}: ${e.message}`;
    if (POOL_MESSAGES.test(e.message)) return e.message;
  }
  return undefined;
}

/** `error` as a StoreUnavailableError when the database is unavailable, else as it was. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  const reason = unavailableReason(error);
  return reason === undefined ? error : new StoreUnavailableError(`The database is unavailable (${reason})`, { retryAfterS: retryAfterS(), cause: error });
}

/** The names of the store's methods that answer at once, with no promise. */
type ImmediateMethod = { [K in keyof Store]: Store[K] extends (...args: never[]) => Promise<unknown> ? never : K }[keyof Store];

/**
 * The store's methods that answer at once, passed through as they are: a method the `Store` type
 * declares without a promise is a type error here until it is listed.
 */
const IMMEDIATE: Record<ImmediateMethod, true> = { takeOnWrite: true };

/**
 * The store with every method's failure passed through `asUnavailable`: a transaction's failure
 * reaches its caller through `transaction`, so the methods of the store at the top are enough. The
 * `Store` type says which methods answer with a promise (all but `IMMEDIATE`).
 */
export function reportingUnavailable(store: Store): Store {
  const rethrow = (error: unknown) => {
    throw asUnavailable(error);
  };
  const wrapped = Object.entries(store).map(([name, member]) => {
    if (typeof member !== 'function' || Object.hasOwn(IMMEDIATE, name)) return [name, member];
    const method = member as (...args: unknown[]) => Promise<unknown>;
    return [name, (...args: unknown[]) => method.apply(store, args).catch(rethrow)];
  });
  return Object.fromEntries(wrapped) as Store;
}
