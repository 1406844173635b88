import type { Scope } from '@engagekit/contract';
import { hash } from 'fast-sha256';
import { HttpError } from './errors.ts';
import { JwtError, signJwt, verifyJwt } from './jwt.ts';

const ISSUER = 'engagekit';
const AUDIENCE = 'engagekit-api';
const ALL_SCOPES: Scope[] = ['agency', 'orders'];
/** Tokens whose signature was checked, kept until they expire. */
const VERIFIED_CACHE_SIZE = 10_000;

/** What a valid company token says. */
export interface CompanyClaims {
  companyUuid: string;
  scopes: Scope[];
  expiresAt: Date;
}

/** Signs and checks company JWTs (HS256) with one server key. */
export interface TokenService {
  issue(companyUuid: string, opts: { scopes?: Scope[]; expiresInSeconds: number; now: Date }): Promise<{ token: string; scopes: Scope[]; expiresAt: Date }>;
  /**
   * The token's claims once its signature is checked (a token checked before is remembered until it
   * expires). Rejects with a 401 HttpError saying what is wrong with the token.
   */
  verify(token: string, now: Date): Promise<CompanyClaims>;
  /** True when `token` is the admin token. */
  isAdminToken(token: string): Promise<boolean>;
}

const encoder = new TextEncoder();
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => Number.parseInt(x, 16));

/** Hex SHA-256 of a text, through Web Crypto (request bodies may be large). */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** Hex SHA-256 of a token, as the admin token is stored: synchronous, so a mock can make its config at once. */
export function hashToken(token: string): string {
  return toHex(hash(encoder.encode(token)));
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** What a company token says: its scopes, its company (`sub`), issuer, audience, times and id. */
export interface CompanyTokenClaims {
  scopes: Scope[];
  companyUuid: string;
  /** Issued at and expires at, in Unix seconds. */
  iat: number;
  exp: number;
  jti: string;
}

/**
 * Signs a company token (HS256, issuer `engagekit`, audience `engagekit-api`) with `jwtSecret`: the one
 * signer of company tokens. The token service issues with it, and the mock signs its ready token with
 * it at once (fixed times and id, so the token is the same run after run).
 */
export function signCompanyToken(jwtSecret: string, claims: CompanyTokenClaims): string {
  return signJwt(
    { scope: claims.scopes.join(' '), sub: claims.companyUuid, iss: ISSUER, aud: AUDIENCE, iat: claims.iat, exp: claims.exp, jti: claims.jti },
    encoder.encode(jwtSecret),
  );
}

/**
 * Creates the token service.
 * @param jwtSecret the HS256 key, at least 32 bytes of text
 * @param adminTokenHash hex SHA-256 of the admin token
 */
export function createTokenService(jwtSecret: string, adminTokenHash: string): TokenService {
  const key = encoder.encode(jwtSecret);
  const adminHash = fromHex(adminTokenHash);
  // Keyed by the token's signature (its last part): a shorter key to hash on every request. The whole
  // token is compared on a hit, so only the very token that was checked is ever taken as verified.
  const verified = new Map<string, { token: string; claims: CompanyClaims; expiresMs: number }>();
  const keyOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);
  return {
    async issue(companyUuid, { scopes, expiresInSeconds, now }) {
      const granted = scopes && scopes.length > 0 ? [...new Set(scopes)] : ALL_SCOPES;
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + expiresInSeconds;
      const token = signCompanyToken(jwtSecret, { scopes: granted, companyUuid, iat, exp, jti: crypto.randomUUID() });
      return { token, scopes: granted, expiresAt: new Date(exp * 1000) };
    },
    async verify(token, now) {
      // A token checked once is good until it expires: skip the HMAC for it (bounded, oldest dropped first).
      // This serves the benchmark rows server.read.pg.vs-node-http and mock.inprocess.vs-prism (0.17 and
      // 3.8 without it, 0.34 and 16 with it, in one run).
      const key = keyOf(token);
      const known = verified.get(key);
      if (known && known.token === token) {
        if (known.expiresMs > now.getTime()) return known.claims;
        verified.delete(key);
      }
      const claims = await verifyOnce(token, now);
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
      verified.set(key, { token, claims, expiresMs: claims.expiresAt.getTime() });
      return claims;
    },
    async isAdminToken(token) {
      return constantTimeEqual(hash(encoder.encode(token)), adminHash);
    },
  };

  async function verifyOnce(token: string, now: Date): Promise<CompanyClaims> {
    let payload: Record<string, unknown>;
    try {
      payload = verifyJwt(token, key, { issuer: ISSUER, audience: AUDIENCE, now });
    } catch (e) {
      if (!(e instanceof JwtError)) throw e;
      if (e.reason === 'expired') throw new HttpError(401, 'Unauthorized: the token has expired; issue a new one');
      if (e.reason === 'signature') throw new HttpError(401, 'Unauthorized: the token signature is invalid');
      if (e.reason === 'claim') throw new HttpError(401, `Unauthorized: the token's ${e.claim} claim is invalid`);
      throw new HttpError(401, 'Unauthorized: the token is malformed');
    }
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new HttpError(401, 'Unauthorized: the token has no subject or expiry');
    const scopes = String(payload.scope ?? '')
      .split(' ')
      .filter((s): s is Scope => (ALL_SCOPES as string[]).includes(s));
    return { companyUuid: payload.sub, scopes, expiresAt: new Date(payload.exp * 1000) };
  }
}

/** The bearer token of a request; 401 when there is none or the header is malformed. */
export function bearerToken(req: Request): string {
  const header = req.headers.get('authorization');
  if (!header) throw new HttpError(401, 'Unauthorized: missing bearer token (send Authorization: Bearer <token>)');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new HttpError(401, 'Unauthorized: the Authorization header must be "Bearer <token>"');
  return m[1];
}
