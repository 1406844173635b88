import type { RevocationCheck } from '../domain/tokens.ts';

/**
 * How long an instance trusts what it read of a company's revocations. A revocation made on another
 * instance is seen here within this time plus one read of the store: the API promises 5 s.
 */
export const REVOCATIONS_REFRESH_MS = 2_000;
const MAX_ENTRIES = 10_000;

/** Each company's revocations, read again at most every `REVOCATIONS_REFRESH_MS`. */
export interface RevocationCache {
  /** The company's revocation check: at once while fresh, else once the store has answered (concurrent callers share one read). */
  get(companyUuid: string): RevocationCheck | Promise<RevocationCheck>;
  /** Forgets what was read of one company (every company without an argument), so the next request reads it again. */
  forget(companyUuid?: string): void;
}

interface Entry {
  /** When the read began (on `nowMs`'s clock): what it gives may be that old. */
  at: number;
  check?: RevocationCheck;
  pending?: Promise<RevocationCheck>;
}

/**
 * A cache of revocation checks over `read` (one store read per company per refresh, never one per
 * request: verifying a remembered token must stay cheap, as `auth.ts` says). `nowMs` is a real,
 * monotonic clock by default: staleness is measured in real time, whatever clock the app runs on.
 */
export function createRevocationCache(
  read: (companyUuid: string) => Promise<RevocationCheck>,
  nowMs: () => number = () => performance.now(),
  refreshMs = REVOCATIONS_REFRESH_MS,
): RevocationCache {
  const entries = new Map<string, Entry>();
  return {
    get(companyUuid) {
      const now = nowMs();
      const known = entries.get(companyUuid);
      if (known && now - known.at < refreshMs) {
        if (known.check) return known.check;
        if (known.pending) return known.pending;
      }
      const entry: Entry = { at: now };
      entry.pending = read(companyUuid).then(
        (check) => {
          // Kept only if nothing forgot the company meanwhile: a read begun before a revocation here is stale.
          if (entries.get(companyUuid) === entry) {
            entry.check = check;
            delete entry.pending;
          }
          return check;
        },
        (error: unknown) => {
          if (entries.get(companyUuid) === entry) entries.delete(companyUuid);
          throw error;
        },
      );
      if (!known && entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(companyUuid, entry);
      return entry.pending;
    },
    forget(companyUuid) {
      if (companyUuid === undefined) entries.clear();
      else entries.delete(companyUuid);
    },
  };
}
