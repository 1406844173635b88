import { copy } from '../copy.ts';
import type { TemplatePort } from '../ports.ts';
import { compareCreatedAt, iso, pageOffset } from '../shared.ts';
import type { TemplateRecord } from '../types.ts';
import { type MemoryState, page, requireState } from './state.ts';

/** The memory store's templates, keyed by (company, template_name, phone_number), and the reviews kept by wam_id. */
export function memoryTemplates(state: MemoryState): TemplatePort {
  return {
    async upsertTemplate(template) {
      requireState(state, template.company_uuid);
      const key = JSON.stringify([template.company_uuid, template.template_name, template.phone_number]);
      const existing = state.templates.get(key);
      const record: TemplateRecord = { ...copy(template), created_at: iso(template.created_at), updated_at: iso(template.updated_at) };
      if (existing) Object.assign(record, { id: existing.id, created_at: existing.created_at });
      state.templates.set(key, record);
      state.tx.undoable(() => (existing ? state.templates.set(key, existing) : state.templates.delete(key)));
      return copy(record);
    },
    async listTemplates(companyUuid, request) {
      // The map holds templates in the order they were made (an update keeps a key's place), and the sort is stable.
      const all = [...state.templates.values()].filter((t) => t.company_uuid === companyUuid).sort(compareCreatedAt);
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async setTemplateStatus(wamId, status, reason, now) {
      const kept = state.templateReviews.get(wamId);
      state.templateReviews.set(wamId, { status: status ?? kept?.status ?? null, reason, updated_at: iso(now) });
      state.tx.undoable(() => (kept ? state.templateReviews.set(wamId, kept) : state.templateReviews.delete(wamId)));
      let changed = 0;
      for (const [key, template] of state.templates) {
        if (template.wam_id !== wamId) continue;
        const updated: TemplateRecord = { ...template, status: status ?? template.status, reason, updated_at: iso(now) };
        state.templates.set(key, updated);
        state.tx.undoable(() => state.templates.set(key, template));
        changed++;
      }
      return changed;
    },
    // Transactions take turns, so the review read stays the latest until this one ends.
    async templateReview(wamId) {
      const kept = state.templateReviews.get(wamId);
      return { status: kept?.status ?? null, reason: kept?.reason ?? null };
    },
  };
}
