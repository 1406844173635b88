/**
 * Company tokens: issuing one (kept without its text), listing them, revoking one or all of a
 * company's, and whether a token is revoked. Signing and checking signatures is `http/auth.ts`'s.
 */
import type { Scope } from '@engagekit/contract';
import type { Store } from '../store/ports.ts';
import type { Page, PageRequest, TokenRecord, TokenRevocations, WriteContext } from '../store/types.ts';

/** Both scopes: what a token gets when none are asked for. */
export const ALL_SCOPES: readonly Scope[] = ['agency', 'orders'];

/** What a company token says: its scopes, its company (`sub`), its times and its id (`jti`). */
export interface CompanyTokenClaims {
  scopes: Scope[];
  companyUuid: string;
  /** Issued at and expires at, in Unix seconds. */
  iat: number;
  exp: number;
  jti: string;
}

/** What a token is asked with: its scopes (both when none) and its lifetime. */
export interface TokenRequest {
  scopes?: Scope[] | undefined;
  expiresInSeconds: number;
}

/**
 * Issues a company token: signs its claims with `sign` and keeps the token's id, scopes and times.
 * Its `iat` is after the company's valid-after time (by up to a second: `iat` counts whole seconds),
 * so a token issued in the second of a `revokeCompanyTokens`, on a clock that stands still, or by an
 * instance whose clock is behind, is not refused by it.
 */
export async function issueToken(
  store: Store,
  sign: (claims: CompanyTokenClaims) => Promise<string>,
  write: WriteContext,
  companyUuid: string,
  request: TokenRequest,
): Promise<{ token: string; record: TokenRecord }> {
  const scopes = request.scopes && request.scopes.length > 0 ? [...new Set(request.scopes)] : [...ALL_SCOPES];
  const nowS = Math.floor(Date.parse(write.now) / 1000);
  const { valid_after } = await store.tokenRevocations(companyUuid, write.now);
  const iat = valid_after === null ? nowS : Math.max(nowS, Math.floor(Date.parse(valid_after) / 1000) + 1);
  const exp = nowS + request.expiresInSeconds;
  const claims: CompanyTokenClaims = { scopes, companyUuid, iat, exp, jti: crypto.randomUUID() };
  const token = await sign(claims);
  const record: TokenRecord = {
    id: claims.jti,
    company_uuid: companyUuid,
    scopes,
    issued_at: new Date(iat * 1000).toISOString(),
    expires_at: new Date(exp * 1000).toISOString(),
    revoked_at: null,
  };
  await store.saveToken(record);
  return { token, record };
}

/** The company's kept tokens, a page at a time, oldest first. */
export function listTokens(store: Store, companyUuid: string, page: PageRequest): Promise<Page<TokenRecord>> {
  return store.listTokens(companyUuid, page);
}

/** Revokes the company's token `id` now (a revoked one stays as it was); null when the company has no token of that id. */
export function revokeToken(store: Store, companyUuid: string, id: string, now: string): Promise<TokenRecord | null> {
  return store.revokeToken(companyUuid, id, now);
}

/** Refuses every token of the company issued until `now` (at or before it), kept or not; what it kept as the valid-after time, and how many kept tokens it revoked. */
export function revokeCompanyTokens(store: Store, companyUuid: string, now: string): Promise<{ valid_after: string; revoked: number }> {
  return store.revokeCompanyTokens(companyUuid, now);
}

/** Whether a token (its `iat` in seconds and its `jti`) is refused. */
export type RevocationCheck = (token: { iat: number; jti: string }) => boolean;

/** The company's revocations as they stand at `now`, as a check of a token: read once, then asked per request. */
export async function readRevocationCheck(store: Store, companyUuid: string, now: string): Promise<RevocationCheck> {
  return revocationCheck(await store.tokenRevocations(companyUuid, now));
}

/**
 * The rule: a token is revoked when it was issued at or before the company's valid-after time (a
 * token's `iat` is in whole seconds, so one issued in the same second as a revocation, before it, is
 * refused), or when it was revoked by its id.
 */
export function revocationCheck(revocations: TokenRevocations): RevocationCheck {
  const validAfterMs = revocations.valid_after === null ? Number.NEGATIVE_INFINITY : Date.parse(revocations.valid_after);
  const revokedIds = new Set(revocations.revoked_ids);
  if (revokedIds.size === 0) return ({ iat }) => iat * 1000 <= validAfterMs;
  return ({ iat, jti }) => iat * 1000 <= validAfterMs || revokedIds.has(jti);
}
