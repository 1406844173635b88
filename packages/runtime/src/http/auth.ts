import type { Scope } from '@engagekit/contract';
import { hash, hmac } from 'fast-sha256';
// jose's subpaths: its main entry loads all of jose (46 modules, about 30 ms of CPU a fresh process
// pays where the runtime loads from node_modules, as the reference server's does), these 12.
import * as base64url from 'jose/base64url';
import * as errors from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import { ALL_SCOPES, type CompanyTokenClaims, type RevocationCheck } from '../domain/tokens.ts';
import { HttpError } from './errors.ts';
import { createRevocationCache, type RevocationCache } from './revocation-cache.ts';

export type { CompanyTokenClaims } from '../domain/tokens.ts';

const ISSUER = 'engagekit';
const AUDIENCE = 'engagekit-api';
/** Tokens whose signature was checked, kept until they expire. */
const VERIFIED_CACHE_SIZE = 10_000;

/** What a valid company token says. */
export interface CompanyClaims {
  companyUuid: string;
  scopes: Scope[];
  expiresAt: Date;
  /** Issued at, in Unix seconds (`iat`), and the token's id (`jti`): what revocation is decided by. */
  iat: number;
  jti: string;
}

/** Signs and checks company JWTs (HS256, through jose) with one server key, and recognizes the admin token. */
export interface TokenService {
  /** The token carrying `claims`, signed (issuer `engagekit`, audience `engagekit-api`). */
  sign(claims: CompanyTokenClaims): Promise<string>;
  /**
   * The token's claims once its signature is checked (a token checked before is remembered until it
   * expires) and it is not revoked. Rejects with a 401 HttpError saying what is wrong with the token.
   */
  verify(token: string, now: Date): Promise<CompanyClaims>;
  /** True when `token` is the admin token (compared in constant time). */
  isAdminToken(token: string): Promise<boolean>;
  /**
   * Forgets what this instance read of a company's revocations (every company's without an argument):
   * after a revocation made here, which then holds here at once.
   */
  forgetRevocations(companyUuid?: string): void;
  /**
   * This service (its key, the admin token, the tokens it has verified) checking the revocations `read`
   * gives, with a cache of its own: an app serving several stores (the mock's, one after another) checks
   * each store's revocations without verifying a token again for each.
   */
  withRevocations(read: (companyUuid: string) => Promise<RevocationCheck>): TokenService;
}

/** Options of `createTokenService`. */
export interface TokenServiceOptions {
  /** A company's revocations as the store has them (see `domain/tokens.ts`); without it no token is revoked. */
  revocations?: (companyUuid: string) => Promise<RevocationCheck>;
}

const encoder = new TextEncoder();
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => Number.parseInt(x, 16));

/** Texts up to this many UTF-16 code units `sha256Hex` hashes in JavaScript (`sha256HexNow`); longer ones through Web Crypto. */
const HASH_NOW_MAX = 4096;

/** Hex SHA-256 of a text: a short one at once (`sha256HexNow`), a long one through Web Crypto (request bodies may be large). */
export async function sha256Hex(text: string): Promise<string> {
  if (text.length <= HASH_NOW_MAX) return sha256HexNow(text);
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/**
 * Hex SHA-256 of a text, synchronously (fast-sha256). For a short text it is the fast path of
 * `sha256Hex`, which hashes the request of every write under an Idempotency-Key (benchmark row
 * mock.partner-suite): a few hundred bytes cost a third of Web Crypto's CPU here, and no round trip
 * through the thread pool that the request's answer would wait for. The same digest.
 */
function sha256HexNow(text: string): string {
  return toHex(hash(encoder.encode(text)));
}

/** Hex SHA-256 of a token, as the admin token is stored: synchronous, so a mock can make its config at once. */
export function hashToken(token: string): string {
  return sha256HexNow(token);
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The claims set of a company token, in the order jose's SignJWT writes them when given all at once. */
function payloadOf(claims: CompanyTokenClaims) {
  return { scope: claims.scopes.join(' '), sub: claims.companyUuid, iss: ISSUER, aud: AUDIENCE, iat: claims.iat, exp: claims.exp, jti: claims.jti };
}

const HEADER = { alg: 'HS256', typ: 'JWT' } as const;

/**
 * Signs a company token at once, without awaiting Web Crypto as jose does: for a token that must exist
 * the moment it is asked for (the mock's ready token, with fixed times and id, so it is the same run
 * after run). It writes the very bytes jose's `SignJWT` writes for the same claims (a test compares
 * them): jose's base64url of the same JSON, and HMAC-SHA256 by fast-sha256. Every token, this one
 * included, is verified by jose alone.
 */
export function signCompanyToken(jwtSecret: string, claims: CompanyTokenClaims): string {
  const input = `${base64url.encode(JSON.stringify(HEADER))}.${base64url.encode(JSON.stringify(payloadOf(claims)))}`;
  return `${input}.${base64url.encode(hmac(encoder.encode(jwtSecret), encoder.encode(input)))}`;
}

/**
 * Whether the token's signature is written in the one canonical base64url spelling: the last
 * character of a segment carries bits that decoders ignore, so without this check each token would
 * have several spellings (its text is a cache key and, for callers, an identity).
 */
function canonicalSignature(token: string): boolean {
  const parts = token.split('.');
  // Not a compact JWS at all: jose says it is malformed.
  if (parts.length !== 3) return true;
  const signature = parts[2] as string;
  let bytes: Uint8Array;
  try {
    bytes = base64url.decode(signature);
  } catch {
    // Not base64url at all: jose says it is malformed.
    return true;
  }
  return base64url.encode(bytes) === signature;
}

/**
 * Creates the token service.
 * @param jwtSecret the HS256 key, at least 32 bytes of text
 * @param adminTokenHash hex SHA-256 of the admin token
 */
export function createTokenService(jwtSecret: string, adminTokenHash: string, options: TokenServiceOptions = {}): TokenService {
  const key = encoder.encode(jwtSecret);
  const adminHash = fromHex(adminTokenHash);
  // Keyed by the token's signature (its last part): a shorter key to hash on every request. The whole
  // token is compared on a hit, so only the very token that was checked is ever taken as verified.
  const verified = new Map<string, { token: string; claims: CompanyClaims; expiresMs: number }>();
  const keyOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);
  return checking(options.revocations ? createRevocationCache(options.revocations) : undefined);

  /** The service checking the revocations of `revocations` (none when undefined). */
  function checking(revocations: RevocationCache | undefined): TokenService {
    return {
      sign: (claims) => new SignJWT(payloadOf(claims)).setProtectedHeader(HEADER).sign(key),
      async verify(token, now) {
        // A token checked once is good until it expires: skip jose for it (bounded, oldest dropped first).
        // This serves the benchmark rows server.read.pg.vs-node-http and mock.inprocess.vs-prism.
        // Revocation costs a map read per request: the company's revocations are read from the store at
        // most every few seconds (revocation-cache.ts).
        const cacheKey = keyOf(token);
        const known = verified.get(cacheKey);
        let claims: CompanyClaims;
        if (known && known.token === token && known.expiresMs > now.getTime()) {
          claims = known.claims;
        } else {
          if (known) verified.delete(cacheKey);
          claims = await verifyOnce(token, now);
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
          verified.set(cacheKey, { token, claims, expiresMs: claims.expiresAt.getTime() });
        }
        if (revocations) {
          const pending = revocations.get(claims.companyUuid);
          const revoked = typeof pending === 'function' ? pending : await pending;
          if (revoked(claims)) throw new HttpError(401, 'Unauthorized: the token has been revoked; ask for a new one');
        }
        return claims;
      },
      async isAdminToken(token) {
        return constantTimeEqual(hash(encoder.encode(token)), adminHash);
      },
      forgetRevocations(companyUuid) {
        revocations?.forget(companyUuid);
      },
      withRevocations: (read) => checking(createRevocationCache(read)),
    };
  }

  async function verifyOnce(token: string, now: Date): Promise<CompanyClaims> {
    if (!canonicalSignature(token)) throw new HttpError(401, 'Unauthorized: the token signature is invalid (not canonical base64url)');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      }));
    } catch (e) {
      if (!(e instanceof errors.JOSEError)) throw e;
      if (e.code === 'ERR_JWT_EXPIRED') throw new HttpError(401, 'Unauthorized: the token has expired; issue a new one');
      if (e.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw new HttpError(401, 'Unauthorized: the token signature is invalid');
      if (e instanceof errors.JWTClaimValidationFailed) throw new HttpError(401, `Unauthorized: the token's ${e.claim} claim is invalid`);
      throw new HttpError(401, 'Unauthorized: the token is malformed');
    }
    const { sub, exp, iat, jti } = payload;
    if (typeof sub !== 'string' || typeof exp !== 'number' || typeof iat !== 'number' || typeof jti !== 'string') {
      throw new HttpError(401, 'Unauthorized: the token has no subject, expiry, issue time or id');
    }
    const scopes = String(payload.scope ?? '')
      .split(' ')
      .filter((s): s is Scope => (ALL_SCOPES as readonly string[]).includes(s));
    return { companyUuid: sub, scopes, expiresAt: new Date(exp * 1000), iat, jti };
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
