import { describe, expect, it } from 'vitest';
import { createTokenService, hashToken } from './auth.ts';

const uuid = '00000000-0000-4000-8000-000000000001';

describe('TokenService.verify', () => {
  it('gives the claims of a token it issued, the second time from what it remembers', async () => {
    const tokens = createTokenService('k'.repeat(40), hashToken('admin-token-0123456789'));
    const now = new Date('2026-01-05T08:00:00.000Z');
    const { token } = await tokens.issue(uuid, { scopes: ['orders'], expiresInSeconds: 60, now });
    const first = await tokens.verify(token, now);
    expect(first).toEqual({ companyUuid: uuid, scopes: ['orders'], expiresAt: new Date('2026-01-05T08:01:00.000Z') });
    expect(await tokens.verify(token, now)).toEqual(first);
  });

  it('refuses a remembered token once it has expired', async () => {
    const tokens = createTokenService('k'.repeat(40), hashToken('admin-token-0123456789'));
    const now = new Date('2026-01-05T08:00:00.000Z');
    const { token } = await tokens.issue(uuid, { expiresInSeconds: 60, now });
    await tokens.verify(token, now);
    await expect(tokens.verify(token, new Date('2026-01-05T08:01:00.000Z'))).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('expired'),
    });
  });

  it('refuses a token that shares a remembered token’s signature but not its claims', async () => {
    const tokens = createTokenService('k'.repeat(40), hashToken('admin-token-0123456789'));
    const now = new Date('2026-01-05T08:00:00.000Z');
    const { token } = await tokens.issue(uuid, { scopes: ['orders'], expiresInSeconds: 60, now });
    await tokens.verify(token, now);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, scope: 'agency orders' })).toString('base64url'), signature].join('.');
    await expect(tokens.verify(forged, now)).rejects.toMatchObject({ status: 401 });
  });
});
