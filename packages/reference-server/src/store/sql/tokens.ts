import { iso, type Page, pageOffset, type TokenPort, type TokenRecord } from '@engagekit/runtime/store';
import { and, eq, gt, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { countRows } from './queries.ts';
import { companyTokens, recordColumns, tokenCutoffs } from './schema.ts';

const tokenColumns = recordColumns(companyTokens);

/** The SQL store's company tokens on `conn` (the pool, or one transaction). */
export function createSqlTokens(conn: SqlConnection): TokenPort {
  const { db } = conn;
  return {
    async saveToken(token) {
      await db.insert(companyTokens).values({
        ...token,
        issued_at: iso(token.issued_at),
        expires_at: iso(token.expires_at),
        revoked_at: token.revoked_at === null ? null : iso(token.revoked_at),
      });
    },
    async listTokens(companyUuid, page): Promise<Page<TokenRecord>> {
      const where = eq(companyTokens.company_uuid, companyUuid);
      const [items, total] = await Promise.all([
        db
          .select(tokenColumns)
          .from(companyTokens)
          .where(where)
          .orderBy(companyTokens.issued_at, companyTokens.created_seq)
          .limit(page.limit)
          .offset(pageOffset(page)),
        countRows(db, companyTokens, where),
      ]);
      return { items, total };
    },
    async revokeToken(companyUuid, id, at) {
      const ofCompany = and(eq(companyTokens.company_uuid, companyUuid), eq(companyTokens.id, id));
      // A revoked token keeps its first revocation time.
      const [revoked] = await db
        .update(companyTokens)
        .set({ revoked_at: iso(at) })
        .where(and(ofCompany, isNull(companyTokens.revoked_at)))
        .returning(tokenColumns);
      if (revoked) return revoked;
      const [token] = await db.select(tokenColumns).from(companyTokens).where(ofCompany);
      return token ?? null;
    },
    revokeCompanyTokens(companyUuid, at) {
      const when = iso(at);
      // Both writes or neither (a savepoint inside a transaction).
      return db.transaction(async (tx) => {
        const [cutoff] = await tx
          .insert(tokenCutoffs)
          .values({ company_uuid: companyUuid, valid_after: when })
          // Never moved back: an instance whose clock is behind cannot let older tokens in again.
          .onConflictDoUpdate({ target: tokenCutoffs.company_uuid, set: { valid_after: sql`GREATEST(${tokenCutoffs.valid_after}, excluded.valid_after)` } })
          .returning({ valid_after: tokenCutoffs.valid_after });
        const revoked = await tx
          .update(companyTokens)
          .set({ revoked_at: when })
          .where(and(eq(companyTokens.company_uuid, companyUuid), isNull(companyTokens.revoked_at), lte(companyTokens.issued_at, when)))
          .returning({ id: companyTokens.id });
        return { valid_after: cutoff?.valid_after ?? when, revoked: revoked.length };
      });
    },
    async tokenRevocations(companyUuid, now) {
      const [cutoffs, revoked] = await Promise.all([
        db.select({ valid_after: tokenCutoffs.valid_after }).from(tokenCutoffs).where(eq(tokenCutoffs.company_uuid, companyUuid)),
        db
          .select({ id: companyTokens.id })
          .from(companyTokens)
          .where(and(eq(companyTokens.company_uuid, companyUuid), isNotNull(companyTokens.revoked_at), gt(companyTokens.expires_at, iso(now)))),
      ]);
      return { valid_after: cutoffs[0]?.valid_after ?? null, revoked_ids: revoked.map((r) => r.id) };
    },
  };
}
