import { pgTimestampToIso } from './schema.ts';

/** A row of a raw `db.execute` result: node-postgres and PGlite both hand rows over in `rows`. */
export type Row = Record<string, unknown>;

/** The rows of a raw `db.execute` result. */
export const rowsOf = (result: unknown): Row[] => ((result as { rows?: Row[] }).rows ?? []) as Row[];

/** A timestamptz column of a raw row as ISO-8601 UTC, or null. */
export const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : pgTimestampToIso(v as string | Date));

/** A jsonb column of a raw row (drivers parse it, or hand it over as text). */
export const jsonValue = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** A boolean column of a raw row (drivers hand it over as a boolean, or as PostgreSQL's text `t`). */
export const boolValue = (v: unknown): boolean => v === true || v === 't';
