import type { StoreConflictError } from '@engagekit/runtime/store';

/** The fields of a PostgreSQL error the store looks at (node-postgres and PGlite both set them; drizzle wraps them in `cause`). */
interface PgErrorFields {
  code: string;
  constraint?: string;
}

/** The PostgreSQL error behind `error` (drizzle wraps driver errors in a `DrizzleQueryError`), if any. */
export function findPgError(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate as PgErrorFields;
    current = candidate.cause;
  }
  return undefined;
}

/** Turns a unique violation (23505) of `constraint` into `conflict`; any other error comes back as it was. */
export function mapUniqueViolation(error: unknown, constraint: string, conflict: () => StoreConflictError): unknown {
  const pg = findPgError(error);
  return pg?.code === '23505' && pg.constraint === constraint ? conflict() : error;
}
