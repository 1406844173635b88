import { base64url, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { type CompanyTokenClaims, revocationCheck } from '../domain/tokens.ts';
import { createTokenService, hashToken, sha256Hex, signCompanyToken } from './auth.ts';

const uuid = '00000000-0000-4000-8000-000000000001';
const secret = 'k'.repeat(40);
const key = new TextEncoder().encode(secret);
const now = new Date('2026-01-05T08:00:00.000Z');
const nowS = now.getTime() / 1000;
const claims = (over: Partial<CompanyTokenClaims> = {}): CompanyTokenClaims => ({
  scopes: ['orders'],
  companyUuid: uuid,
  iat: nowS,
  exp: nowS + 60,
  jti: 'tok-1',
  ...over,
});
const service = (options?: Parameters<typeof createTokenService>[2]) => createTokenService(secret, hashToken('admin-token-0123456789'), options);
const b64 = (value: unknown) => base64url.encode(JSON.stringify(value));

/** The 401's message for `token`, or 'ok'. */
async function refusal(token: string, tokens = service(), at = now): Promise<string> {
  try {
    await tokens.verify(token, at);
    return 'ok';
  } catch (e) {
    expect(e).toMatchObject({ status: 401 });
    return (e as Error).message;
  }
}

describe('TokenService.verify', () => {
  it('gives the claims of a token it signed, the second time from what it remembers', async () => {
    const tokens = service();
    const token = await tokens.sign(claims());
    const first = await tokens.verify(token, now);
    expect(first).toEqual({ companyUuid: uuid, scopes: ['orders'], expiresAt: new Date('2026-01-05T08:01:00.000Z'), iat: nowS, jti: 'tok-1' });
    expect(await tokens.verify(token, now)).toEqual(first);
  });

  it('refuses a remembered token once it has expired', async () => {
    const tokens = service();
    const token = await tokens.sign(claims());
    await tokens.verify(token, now);
    expect(await refusal(token, tokens, new Date('2026-01-05T08:01:00.000Z'))).toContain('expired');
  });

  it('refuses a token that shares a remembered token’s signature but not its claims', async () => {
    const tokens = service();
    const token = await tokens.sign(claims());
    await tokens.verify(token, now);
    const [header, , signature] = token.split('.');
    const forged = [
      header,
      b64({ ...JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1] ?? ''))), scope: 'agency orders' }),
      signature,
    ].join('.');
    expect(await refusal(forged, tokens)).toContain('signature is invalid');
  });

  it('accepts only the canonical base64url spelling of a signature, before and after it verified the token', async () => {
    const tokens = service();
    const token = await tokens.sign(claims());
    const signature = token.slice(token.lastIndexOf('.') + 1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last character of a 32-byte signature carries 4 bits the decoder drops: these decode to the same bytes.
    const last = alphabet.indexOf(signature.at(-1) as string);
    const others = [0, 1, 2, 3].map((low) => alphabet[(last & ~3) | low] as string).filter((c) => c !== signature.at(-1));
    expect(others).toHaveLength(3);
    const spellings = others.map((c) => `${token.slice(0, -1)}${c}`);
    for (const spelling of spellings) expect(base64url.decode(spelling.split('.')[2] ?? '')).toEqual(base64url.decode(signature));
    for (const spelling of spellings) expect(await refusal(spelling, tokens)).toContain('not canonical base64url');
    expect(await refusal(token, tokens)).toBe('ok');
    for (const spelling of spellings) expect(await refusal(spelling, tokens)).toContain('not canonical base64url');
  });

  it('refuses another key, another algorithm ("none" among them), a critical header and malformed tokens', async () => {
    const token = await service().sign(claims());
    const [, payload, signature] = token.split('.');
    expect(await refusal(await new SignJWT({ sub: uuid }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(40))))).toContain(
      'signature is invalid',
    );
    expect(await refusal(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)).toContain('malformed');
    expect(await refusal(`${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`)).toContain('malformed');
    expect(await refusal(`${b64({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 })}.${payload}.${signature}`)).toContain('malformed');
    expect(await refusal('a.b')).toContain('malformed');
    expect(await refusal('a.b.c.d')).toContain('malformed');
    expect(await refusal('x.y.z')).toContain('malformed');
    // Its signature is checked before its payload is read.
    expect(await refusal(`${b64({ alg: 'HS256' })}.not-json.AAAA`)).toContain('signature is invalid');
  });

  it('checks issuer, audience, not-before, and that subject, expiry, issue time and id are there', async () => {
    const sign = (payload: Record<string, unknown>) => new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
    const good: Record<string, unknown> = { scope: 'orders', sub: uuid, iss: 'engagekit', aud: 'engagekit-api', iat: nowS, exp: nowS + 60, jti: 'tok-1' };
    expect(await refusal(await sign(good))).toBe('ok');
    expect(await refusal(await sign({ ...good, iss: 'other' }))).toContain('iss claim');
    expect(await refusal(await sign({ ...good, aud: 'other' }))).toContain('aud claim');
    expect(await refusal(await sign({ ...good, nbf: nowS + 10 }))).toContain('nbf claim');
    for (const claim of ['sub', 'exp', 'iat', 'jti']) {
      const { [claim]: _, ...without } = good;
      expect(await refusal(await sign(without)), claim).toContain(`${claim} claim`);
    }
  });

  it('refuses a revoked token, by its id or its issue time, remembered or not', async () => {
    let revocations = revocationCheck({ valid_after: null, revoked_ids: [] });
    const tokens = service({ revocations: async () => revocations });
    const token = await tokens.sign(claims());
    expect(await refusal(token, tokens)).toBe('ok');
    revocations = revocationCheck({ valid_after: null, revoked_ids: ['tok-1'] });
    tokens.forgetRevocations(uuid);
    expect(await refusal(token, tokens)).toBe('Unauthorized: the token has been revoked; ask for a new one');
    revocations = revocationCheck({ valid_after: new Date((nowS + 1) * 1000).toISOString(), revoked_ids: [] });
    tokens.forgetRevocations();
    expect(await refusal(token, tokens)).toContain('has been revoked');
    expect(await refusal(await tokens.sign(claims({ iat: nowS + 1, jti: 'tok-2' })), tokens)).toContain('has been revoked');
    expect(await refusal(await tokens.sign(claims({ iat: nowS + 2, jti: 'tok-3' })), tokens)).toBe('ok');
  });
});

describe('TokenService.withRevocations', () => {
  it('checks the revocations it is given, read once a refresh through a cache of its own, and leaves the service’s own alone', async () => {
    const tokens = service({ revocations: async () => revocationCheck({ valid_after: null, revoked_ids: [] }) });
    const token = await tokens.sign(claims());
    expect(await refusal(token, tokens)).toBe('ok');
    let reads = 0;
    const revoking = tokens.withRevocations(async () => {
      reads++;
      return revocationCheck({ valid_after: null, revoked_ids: ['tok-1'] });
    });
    expect(await refusal(token, revoking)).toBe('Unauthorized: the token has been revoked; ask for a new one');
    expect(await refusal(token, revoking)).toContain('has been revoked');
    expect(reads).toBe(1);
    // The service it came from still reads its own revocations.
    expect(await refusal(token, tokens)).toBe('ok');
  });
});

describe('signCompanyToken', () => {
  it('writes the very token jose’s SignJWT writes for the same claims, which jose verifies', async () => {
    const tokens = service();
    const fixed = claims({ scopes: ['agency', 'orders'], iat: 1_735_689_600, exp: 4_102_444_800, jti: `mock-${uuid}` });
    const atOnce = signCompanyToken(secret, fixed);
    expect(atOnce).toBe(await tokens.sign(fixed));
    expect(await tokens.verify(atOnce, now)).toMatchObject({ companyUuid: uuid, scopes: ['agency', 'orders'], jti: `mock-${uuid}` });
  });
});

describe('TokenService.isAdminToken', () => {
  it('is true for the admin token only', async () => {
    const tokens = service();
    expect(await tokens.isAdminToken('admin-token-0123456789')).toBe(true);
    expect(await tokens.isAdminToken('admin-token-012345678')).toBe(false);
    expect(await tokens.isAdminToken(await tokens.sign(claims()))).toBe(false);
  });
});

describe('sha256Hex', () => {
  it('gives Web Crypto’s digest for a short text, hashed at once, and for a long one, hashed by Web Crypto', async () => {
    const webCrypto = async (text: string) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');
    for (const text of ['', 'POST /agency/createCampaign?uuid=x\n{"name":"é ✓ 😀"}', 'a'.repeat(4096), 'b'.repeat(4097), '✓'.repeat(5000)]) {
      expect(await sha256Hex(text)).toBe(await webCrypto(text));
    }
    expect(hashToken('admin-token')).toBe(await webCrypto('admin-token'));
  });
});
