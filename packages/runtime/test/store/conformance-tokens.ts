/** Store conformance: company tokens and their revocation. Registered by `describeStoreConformance`. */
import { describe, expect, it } from 'vitest';
import type { TokenRecord } from '../../src/store/types.ts';
import type { CurrentStore } from './conformance.ts';
import { company, seedCompany } from './conformance-fixtures.ts';

/** A kept token of a company, issued at `issued_at` (UTC, with an offset to check it is normalized) and expiring a day later. */
function token(companyUuid: string, id: string, issuedAt: string, overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    id,
    company_uuid: companyUuid,
    scopes: ['agency', 'orders'],
    issued_at: issuedAt,
    expires_at: new Date(Date.parse(issuedAt) + 86_400_000).toISOString(),
    revoked_at: null,
    ...overrides,
  };
}

/** Registers the token tests. */
export function describeTokenConformance(store: CurrentStore): void {
  describe('company tokens', () => {
    it('lists kept tokens by issue time, then in the order they were kept, one page at a time, per company', async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      await store().saveToken(token(co.uuid, 'tok-b', '2025-01-15T11:00:01+01:00', { scopes: ['orders'] }));
      await store().saveToken(token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z'));
      await store().saveToken(token(co.uuid, 'tok-c', '2025-01-15T10:00:01.000Z'));
      await store().saveToken(token(other.uuid, 'tok-z', '2025-01-15T09:00:00.000Z'));
      const first = await store().listTokens(co.uuid, { page: 1, limit: 2 });
      expect(first.total).toBe(3);
      expect(first.items).toEqual([
        token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z'),
        token(co.uuid, 'tok-b', '2025-01-15T10:00:01.000Z', { scopes: ['orders'] }),
      ]);
      expect((await store().listTokens(co.uuid, { page: 2, limit: 2 })).items.map((t) => t.id)).toEqual(['tok-c']);
      expect(await store().listTokens(company(3).uuid, { page: 1, limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it('revokes one token of the company once, keeping its first revocation time; null for another company’s or an unknown id', async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      await store().saveToken(token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z'));
      const revoked = await store().revokeToken(co.uuid, 'tok-a', '2025-01-15T12:00:00.000Z');
      expect(revoked).toEqual(token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z', { revoked_at: '2025-01-15T12:00:00.000Z' }));
      expect(await store().revokeToken(co.uuid, 'tok-a', '2025-01-15T13:00:00.000Z')).toEqual(revoked);
      expect(await store().revokeToken(other.uuid, 'tok-a', '2025-01-15T13:00:00.000Z')).toBeNull();
      expect(await store().revokeToken(co.uuid, 'tok-unknown', '2025-01-15T13:00:00.000Z')).toBeNull();
      expect((await store().listTokens(co.uuid, { page: 1, limit: 10 })).items).toEqual([revoked]);
    });

    it('gives a company’s revocations: its valid-after time and the ids revoked one by one that have not expired', async () => {
      const co = await seedCompany(store(), 1);
      expect(await store().tokenRevocations(co.uuid, '2025-01-15T12:00:00.000Z')).toEqual({ valid_after: null, revoked_ids: [] });
      await store().saveToken(token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z'));
      await store().saveToken(token(co.uuid, 'tok-b', '2025-01-14T10:00:00.000Z'));
      await store().saveToken(token(co.uuid, 'tok-c', '2025-01-15T10:00:00.000Z'));
      await store().revokeToken(co.uuid, 'tok-a', '2025-01-15T11:00:00.000Z');
      await store().revokeToken(co.uuid, 'tok-b', '2025-01-15T11:00:00.000Z');
      // tok-b expired at 2025-01-15T10:00: nothing needs refusing it by id any more.
      expect(await store().tokenRevocations(co.uuid, '2025-01-15T12:00:00.000Z')).toEqual({ valid_after: null, revoked_ids: ['tok-a'] });
      expect(await store().tokenRevocations(company(3).uuid, '2025-01-15T12:00:00.000Z')).toEqual({ valid_after: null, revoked_ids: [] });
    });

    it('revokes every token of a company issued until a time, never moving its valid-after time back', async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      await store().saveToken(token(co.uuid, 'tok-old', '2025-01-15T10:00:00.000Z'));
      await store().saveToken(token(co.uuid, 'tok-gone', '2025-01-15T10:00:01.000Z'));
      await store().saveToken(token(co.uuid, 'tok-at', '2025-01-15T11:00:00.000Z'));
      await store().saveToken(token(co.uuid, 'tok-new', '2025-01-15T12:00:00.000Z'));
      await store().saveToken(token(other.uuid, 'tok-other', '2025-01-15T10:00:00.000Z'));
      await store().revokeToken(co.uuid, 'tok-gone', '2025-01-15T10:30:00.000Z');
      expect(await store().revokeCompanyTokens(co.uuid, '2025-01-15T12:00:00+01:00')).toEqual({ valid_after: '2025-01-15T11:00:00.000Z', revoked: 2 });
      const listed = (await store().listTokens(co.uuid, { page: 1, limit: 10 })).items;
      expect(listed.map((t) => [t.id, t.revoked_at])).toEqual([
        ['tok-old', '2025-01-15T11:00:00.000Z'],
        ['tok-gone', '2025-01-15T10:30:00.000Z'],
        ['tok-at', '2025-01-15T11:00:00.000Z'],
        ['tok-new', null],
      ]);
      expect((await store().listTokens(other.uuid, { page: 1, limit: 10 })).items[0]?.revoked_at).toBeNull();
      expect(await store().revokeCompanyTokens(co.uuid, '2025-01-15T10:59:00.000Z')).toEqual({ valid_after: '2025-01-15T11:00:00.000Z', revoked: 0 });
      expect((await store().tokenRevocations(co.uuid, '2025-01-15T12:00:00.000Z')).valid_after).toBe('2025-01-15T11:00:00.000Z');
      expect((await store().tokenRevocations(other.uuid, '2025-01-15T12:00:00.000Z')).valid_after).toBeNull();
    });

    it('undoes token writes of a transaction that throws', async () => {
      const co = await seedCompany(store(), 1);
      await store().saveToken(token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z'));
      await expect(
        store().transaction(async (tx) => {
          await tx.saveToken(token(co.uuid, 'tok-b', '2025-01-15T10:00:01.000Z'));
          await tx.revokeToken(co.uuid, 'tok-a', '2025-01-15T11:00:00.000Z');
          await tx.revokeCompanyTokens(co.uuid, '2025-01-15T11:00:00.000Z');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await store().listTokens(co.uuid, { page: 1, limit: 10 })).items).toEqual([token(co.uuid, 'tok-a', '2025-01-15T10:00:00.000Z')]);
      expect(await store().tokenRevocations(co.uuid, '2025-01-15T12:00:00.000Z')).toEqual({ valid_after: null, revoked_ids: [] });
    });
  });
}
