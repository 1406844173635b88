import { copy } from '../copy.ts';
import type { TokenPort } from '../ports.ts';
import { iso, pageOffset } from '../shared.ts';
import { type MemoryState, page, requireState } from './state.ts';

/** The memory store's company tokens: each write can be undone, for a transaction that throws. */
export function memoryTokens(state: MemoryState): TokenPort {
  return {
    async saveToken(token) {
      const company = requireState(state, token.company_uuid);
      if (company.tokens.some((t) => t.id === token.id)) throw new Error(`A token with id "${token.id}" exists already.`);
      const record = {
        ...copy(token),
        issued_at: iso(token.issued_at),
        expires_at: iso(token.expires_at),
        revoked_at: token.revoked_at === null ? null : iso(token.revoked_at),
      };
      // By issue time, then in the order kept: after every token issued at the same time or before.
      const at = company.tokens.findIndex((t) => t.issued_at > record.issued_at);
      company.tokens.splice(at === -1 ? company.tokens.length : at, 0, record);
      state.tx.undoable(() => company.tokens.splice(company.tokens.indexOf(record), 1));
    },
    async listTokens(companyUuid, request) {
      const tokens = state.states.get(companyUuid)?.tokens ?? [];
      const offset = pageOffset(request);
      return page(tokens.slice(offset, offset + request.limit), tokens.length);
    },
    async revokeToken(companyUuid, id, at) {
      const token = state.states.get(companyUuid)?.tokens.find((t) => t.id === id);
      if (!token) return null;
      if (token.revoked_at === null) {
        token.revoked_at = iso(at);
        state.tx.undoable(() => {
          token.revoked_at = null;
        });
      }
      return copy(token);
    },
    async revokeCompanyTokens(companyUuid, at) {
      const company = requireState(state, companyUuid);
      const when = iso(at);
      const before = company.tokensValidAfter;
      if (before === null || before < when) company.tokensValidAfter = when;
      const revoked = company.tokens.filter((t) => t.revoked_at === null && t.issued_at <= when);
      for (const token of revoked) token.revoked_at = when;
      state.tx.undoable(() => {
        company.tokensValidAfter = before;
        for (const token of revoked) token.revoked_at = null;
      });
      return { valid_after: company.tokensValidAfter as string, revoked: revoked.length };
    },
    async tokenRevocations(companyUuid, now) {
      const company = state.states.get(companyUuid);
      if (!company) return { valid_after: null, revoked_ids: [] };
      const at = iso(now);
      const revokedIds = company.tokens.filter((t) => t.revoked_at !== null && t.expires_at > at).map((t) => t.id);
      return { valid_after: company.tokensValidAfter, revoked_ids: revokedIds };
    },
  };
}
