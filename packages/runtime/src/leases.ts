/**
 * An instance's leases: everything it works on (deliveries it sends, campaign chunks it runs,
 * idempotency keys of requests it answers) is claimed under one token of its own until a time a
 * little ahead, and renewed together, every third of a lease, while the instance lives. When it dies,
 * its leases run out within one lease (10 s by default) and any instance, itself restarted among them,
 * takes the work over.
 */
import { type Clock, systemClock } from './clock.ts';
import { type Logger, silentLogger } from './logger.ts';
import type { RuntimeObserver } from './observer.ts';
import type { LeasePort } from './store/ports.ts';

/** The default length of a lease: how long a dead instance's work waits before it is taken over. */
const DEFAULT_LEASE_MS = 10_000;

/** One instance's leases. */
export interface Leases {
  /** The token everything this instance claims is held under. */
  readonly claimToken: string;
  /** When a lease taken or renewed now ends (ISO). */
  until(): string;
  /** Starts renewing (idempotent). */
  start(): void;
  /** Stops renewing: what is still held lapses within a lease. */
  stop(): void;
}

/** Options of `createLeases`. */
interface LeasesOptions {
  store: LeasePort;
  clock?: Clock;
  logger?: Logger;
  /** A lease's length. Default 10 s. */
  leaseMs?: number;
  /** Hears of each renewal (`leaseRenewal`). */
  observer?: RuntimeObserver | undefined;
}

/**
 * Creates the leases of one instance over its store.
 *
 * @example
 * const leases = createLeases({ store });
 * leases.start();
 * await store.claimChunks({ now, leaseUntil: leases.until(), claimToken: leases.claimToken, limit: 2 });
 */
export function createLeases(options: LeasesOptions): Leases {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const claimToken = `ins_${crypto.randomUUID()}`;
  const until = () => new Date(clock.now().getTime() + leaseMs).toISOString();
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    claimToken,
    until,
    start() {
      if (timer) return;
      timer = setInterval(
        () => {
          options.store.renewLeases(claimToken, until()).then(
            () => options.observer?.leaseRenewal?.(true),
            (err) => {
              options.observer?.leaseRenewal?.(false);
              logger.warn({ err }, 'renewing leases failed; retrying');
            },
          );
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
