/**
 * The mock's ready company token, signed at once by the runtime's one signer of company tokens, with
 * a fixed issue time, expiry and id: the same secret and company give the same token run after run, so
 * a CI configuration can hard-code it.
 */
import { signCompanyToken } from '@engagekit/runtime';

/** 2025-01-01T00:00:00Z and 2100-01-01T00:00:00Z. */
const ISSUED_AT = 1_735_689_600;
const EXPIRES_AT = 4_102_444_800;

/** A company token (agency and orders scopes) for `companyUuid`, signed with `jwtSecret`. */
export function readyCompanyToken(jwtSecret: string, companyUuid: string): string {
  return signCompanyToken(jwtSecret, { scopes: ['agency', 'orders'], companyUuid, iat: ISSUED_AT, exp: EXPIRES_AT, jti: `mock-${companyUuid}` });
}
