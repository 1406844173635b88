/**
 * HS256 JSON Web Tokens (RFC 7519 with the HMAC-SHA256 signature of RFC 7515), synchronously: the one
 * signer of company tokens (the token service issues them with it, and the mock signs its ready
 * token with it at once, without awaiting Web Crypto) and their check. Only HS256 is accepted, so a
 * token that names another algorithm (`none` among them) is refused before any signature is checked.
 */
import { hmac } from 'fast-sha256';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Why a token was refused: its shape, its signature, its expiry, or one of its claims. */
export class JwtError extends Error {
  override readonly name = 'JwtError';
  constructor(
    readonly reason: 'malformed' | 'signature' | 'expired' | 'claim',
    /** The claim that failed, for `claim`. */
    readonly claim?: string,
  ) {
    super(
      reason === 'claim'
        ? `the ${claim} claim is invalid`
        : `the token is ${reason === 'expired' ? 'expired' : reason === 'signature' ? 'badly signed' : 'malformed'}`,
    );
  }
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url segment (no padding); throws a `malformed` JwtError on any other character. */
function fromBase64url(segment: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(segment) || segment.length % 4 === 1) throw new JwtError('malformed');
  const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function jsonObject(segment: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(fromBase64url(segment)));
  } catch {
    throw new JwtError('malformed');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JwtError('malformed');
  return value as Record<string, unknown>;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

const HEADER = base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

/** The token carrying `claims`, signed with `key` (HS256). */
export function signJwt(claims: Record<string, unknown>, key: Uint8Array): string {
  const input = `${HEADER}.${base64url(encoder.encode(JSON.stringify(claims)))}`;
  return `${input}.${base64url(hmac(key, encoder.encode(input)))}`;
}

/** What a token must say besides its signature. */
export interface JwtExpectations {
  issuer: string;
  audience: string;
  now: Date;
}

/**
 * The claims of `token` once its HS256 signature under `key` and its registered claims hold: `iss`
 * and `aud` are the ones expected, `exp` (when present) is after `now`, `nbf` (when present) not after
 * it, and each time claim is a number. Throws a `JwtError` saying which did not hold.
 */
export function verifyJwt(token: string, key: Uint8Array, expected: JwtExpectations): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('malformed');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = jsonObject(headerPart);
  if (header.alg !== 'HS256' || header.crit !== undefined) throw new JwtError('malformed');
  const signature = fromBase64url(signaturePart);
  if (!constantTimeEqual(signature, hmac(key, encoder.encode(`${headerPart}.${payloadPart}`)))) throw new JwtError('signature');
  const claims = jsonObject(payloadPart);
  const nowS = expected.now.getTime() / 1000;
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    if (claims[name] !== undefined && (typeof claims[name] !== 'number' || !Number.isFinite(claims[name]))) throw new JwtError('claim', name);
  }
  if (typeof claims.exp === 'number' && claims.exp <= nowS) throw new JwtError('expired');
  if (typeof claims.nbf === 'number' && claims.nbf > nowS) throw new JwtError('claim', 'nbf');
  if (claims.iss !== expected.issuer) throw new JwtError('claim', 'iss');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.audience)) throw new JwtError('claim', 'aud');
  return claims;
}
