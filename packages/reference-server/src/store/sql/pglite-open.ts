/**
 * How the store opens PGlite itself: drizzle's parsers installed once, and reads prepared once (see
 * pglite-prepared.ts). This runs on the database thread (pglite-worker.ts).
 */
import { PGlite, types } from '@electric-sql/pglite';
import { withPreparedReads } from './pglite-prepared.ts';

/** The type OIDs drizzle keeps as text (dates, times, intervals and their arrays) rather than parse. */
export const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

/** Whether `parsers` keeps exactly the text types as text, as drizzle's do. */
export function sameParsers(parsers: Record<number, (value: string, typeId: number) => unknown>): boolean {
  const oids = Object.keys(parsers);
  return oids.length === TEXT_TYPES.length && TEXT_TYPES.every((oid) => parsers[oid]?.('x', oid) === 'x');
}

/**
 * PGlite with drizzle's text types installed as its own parsers (drizzle hands the same parsers to
 * every query, which makes PGlite merge them into a copy of its whole parser table each time) and its
 * reads outside transactions prepared once as named statements.
 */
export async function createPglite(dataDir: string | undefined): Promise<PGlite> {
  const parsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, asText]));
  const client = await PGlite.create(dataDir, { parsers });
  client.query = withPreparedReads(client, client.query.bind(client)) as typeof client.query;
  return client;
}
