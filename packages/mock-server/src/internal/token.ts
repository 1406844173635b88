/**
 * Synchronous HS256 and SHA-256, so `setupMockApi()` can hand out a ready company token and admin
 * hash without awaiting Web Crypto. The app still checks every token with the reference server's own
 * token service (jose); only the mock's one pre-issued token is signed here. Its claims are the ones
 * `createTokenService().issue()` writes (a test compares them).
 */
import { hash, hmac } from 'fast-sha256';

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Hex SHA-256 of a token: what the app's `adminTokenHash` holds (same as the reference server's async `hashToken`). */
export function sha256Hex(text: string): string {
  return Array.from(hash(encoder.encode(text)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** 2025-01-01T00:00:00Z and 2100-01-01T00:00:00Z: a fixed issue time and a far expiry keep the token the same run after run. */
const ISSUED_AT = 1_735_689_600;
const EXPIRES_AT = 4_102_444_800;

/**
 * A company token (agency and orders scopes) for `companyUuid`, signed with `jwtSecret` the way the
 * reference server's token service signs: issuer `engagekit`, audience `engagekit-api`, HS256.
 * Deterministic: the same secret and company give the same token.
 */
export function signCompanyToken(jwtSecret: string, companyUuid: string): string {
  const header = { alg: 'HS256', typ: 'JWT' };
  const payload = {
    scope: 'agency orders',
    sub: companyUuid,
    iss: 'engagekit',
    aud: 'engagekit-api',
    iat: ISSUED_AT,
    exp: EXPIRES_AT,
    jti: `mock-${companyUuid}`,
  };
  const input = `${base64url(encoder.encode(JSON.stringify(header)))}.${base64url(encoder.encode(JSON.stringify(payload)))}`;
  return `${input}.${base64url(hmac(encoder.encode(jwtSecret), encoder.encode(input)))}`;
}
