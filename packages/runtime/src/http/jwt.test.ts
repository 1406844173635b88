import { describe, expect, it } from 'vitest';
import { JwtError, signJwt, verifyJwt } from './jwt.ts';

const key = new TextEncoder().encode('k'.repeat(40));
const now = new Date('2026-01-05T08:00:00.000Z');
const nowS = now.getTime() / 1000;
const expected = { issuer: 'engagekit', audience: 'engagekit-api', now };
const good = { sub: 'c1', iss: 'engagekit', aud: 'engagekit-api', iat: nowS, exp: nowS + 60 };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The reason verifyJwt gives for `token`, or 'ok'. */
function reason(token: string, exp = expected): string {
  try {
    verifyJwt(token, key, exp);
    return 'ok';
  } catch (e) {
    if (!(e instanceof JwtError)) throw e;
    return e.claim ? `${e.reason}:${e.claim}` : e.reason;
  }
}

describe('signJwt and verifyJwt', () => {
  it('verifies what it signs, and gives back the claims', () => {
    const token = signJwt(good, key);
    expect(token.split('.')).toHaveLength(3);
    expect(verifyJwt(token, key, expected)).toEqual(good);
  });

  it('refuses another key, a changed payload and a changed signature', () => {
    const token = signJwt(good, key);
    expect(reason(signJwt(good, new TextEncoder().encode('x'.repeat(40))))).toBe('signature');
    const [h, , s] = token.split('.');
    expect(reason(`${h}.${b64({ ...good, sub: 'c2' })}.${s}`)).toBe('signature');
    expect(reason(`${token.slice(0, -2)}AA`)).toBe('signature');
  });

  it('refuses any algorithm but HS256, "none" among them, and critical headers', () => {
    const [, p, s] = signJwt(good, key).split('.');
    expect(reason(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.`)).toBe('malformed');
    expect(reason(`${b64({ alg: 'HS512', typ: 'JWT' })}.${p}.${s}`)).toBe('malformed');
    expect(reason(`${b64({ alg: 'HS256', crit: ['b64'] })}.${p}.${s}`)).toBe('malformed');
  });

  it('refuses malformed tokens: parts, base64url, JSON, a payload that is no object', () => {
    expect(reason('a.b')).toBe('malformed');
    expect(reason('a.b.c.d')).toBe('malformed');
    expect(reason(`${b64({ alg: 'HS256' })}.e30=.x`)).toBe('malformed');
    expect(reason(`${b64({ alg: 'HS256' })}.not-json.x`)).toBe('malformed');
    expect(reason(signJwt([] as unknown as Record<string, unknown>, key))).toBe('malformed');
  });

  it('checks expiry, not-before, issuer, audience and the type of each time claim', () => {
    expect(reason(signJwt({ ...good, exp: nowS }, key))).toBe('expired');
    expect(reason(signJwt({ ...good, nbf: nowS + 1 }, key))).toBe('claim:nbf');
    expect(reason(signJwt({ ...good, iss: 'other' }, key))).toBe('claim:iss');
    expect(reason(signJwt({ ...good, aud: 'other' }, key))).toBe('claim:aud');
    expect(reason(signJwt({ ...good, aud: ['x', 'engagekit-api'] }, key))).toBe('ok');
    expect(reason(signJwt({ ...good, exp: '9999999999' }, key))).toBe('claim:exp');
    expect(reason(signJwt({ ...good, iat: null }, key))).toBe('claim:iat');
  });
});
