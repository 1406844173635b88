/**
 * How the store opens PGlite itself: drizzle's parsers installed once. This runs on the database
 * thread (pglite-worker.ts).
 */
import { PGlite, types } from '@electric-sql/pglite';

/** The type OIDs drizzle keeps as text (dates, times, intervals and their arrays) rather than parse. */
export const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

/** Whether `parsers` keeps exactly the text types as text, as drizzle's do. */
export function sameParsers(parsers: Record<number, (value: string, typeId: number) => unknown>): boolean {
  const oids = Object.keys(parsers);
  return oids.length === TEXT_TYPES.length && TEXT_TYPES.every((oid) => parsers[oid]?.('x', oid) === 'x');
}

/**
 * PGlite with drizzle's text types installed as its own parsers: the thread's queries carry no
 * parsers (functions cannot cross threads), so drizzle's must already be PGlite's. A new database
 * starts from `loadDataDir` (a dump, `PGlite.dumpDataDir()`) when given, instead of initdb.
 */
export function createPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<PGlite> {
  const parsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, asText]));
  return PGlite.create(dataDir, { parsers, ...(loadDataDir ? { loadDataDir } : {}) });
}
