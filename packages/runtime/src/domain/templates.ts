/**
 * WhatsApp templates: a submitted template is kept per (name, phone number), with its status at
 * WhatsApp, which WhatsApp's review reports move (`applyTemplateStatus`; a review that comes before
 * the submission is kept for it); a campaign may require its template to be usable (`templateUsability`).
 */
import type { SubmitTemplateBody, TemplateStatus } from '@engagekit/contract';
import type { Store } from '../store/ports.ts';
import type { CompanyRecord, Page, PageRequest, TemplateRecord, WriteContext } from '../store/types.ts';
import type { TemplateStatusUpdate } from './channel.ts';
import { everyPage } from './every-page.ts';

/**
 * Stores or updates the template (name, phone number) of the company. With a `wam_id` (WhatsApp's
 * id for it) its status is the one WhatsApp's last review of that id reported, with its reason (a
 * review often comes before the company submits the id), else `submitted`; without one it is
 * `failed`, with the reason.
 */
export function submitTemplate(store: Store, write: WriteContext, company: CompanyRecord, template: SubmitTemplateBody): Promise<TemplateRecord> {
  const { now } = write;
  const record = (wam_id: string | null, status: TemplateStatus, reason: string | null): TemplateRecord => ({
    id: write.newId('tpl'),
    company_uuid: company.uuid,
    template_name: template.template_name,
    phone_number: template.phone_number,
    wam_id,
    status,
    reason,
    created_at: now,
    updated_at: now,
  });
  const wamId = template.wam_id;
  if (!wamId) return store.upsertTemplate(record(null, 'failed', 'No wam_id was given: the template was not submitted to WhatsApp.'));
  // A review (applyTemplateStatus) and a submission of the same id both lock its review row first,
  // so they run one after the other: either the review is read here, or it waits for this
  // transaction to end and then finds the template written.
  return store.transaction(async (tx) => {
    const review = await tx.templateReview(wamId, now);
    return tx.upsertTemplate(record(wamId, review.status ?? 'submitted', review.reason));
  });
}

/** The company's templates, a page of them, oldest first. */
export function listTemplates(store: Store, company: CompanyRecord, page: PageRequest): Promise<Page<TemplateRecord>> {
  return store.listTemplates(company.uuid, page);
}

/**
 * What each of WhatsApp's template events makes of a template: its new status (null keeps the one it
 * has), and whether the event's reason is kept (otherwise the reason is cleared).
 */
const TEMPLATE_EVENTS: Readonly<Record<string, { status: TemplateStatus | null; keepsReason: boolean }>> = {
  PENDING: { status: 'submitted', keepsReason: false },
  APPROVED: { status: 'approved', keepsReason: false },
  REJECTED: { status: 'rejected', keepsReason: true },
  PAUSED: { status: 'paused', keepsReason: false },
  DISABLED: { status: 'disabled', keepsReason: false },
  REINSTATED: { status: 'approved', keepsReason: false },
  FLAGGED: { status: null, keepsReason: true },
};

/**
 * Applies a status WhatsApp reported for a template (`message_template_status_update`) to every
 * company's template with that `wam_id`: PENDING -> `submitted`, APPROVED and REINSTATED ->
 * `approved`, REJECTED -> `rejected` with its reason, PAUSED -> `paused`, DISABLED -> `disabled`;
 * FLAGGED keeps the status and sets the reason. Any other event changes nothing. The review is kept
 * by `wam_id` too, for a template submitted with that id later (`submitTemplate`). Resolves to how
 * many templates changed.
 *
 * @example
 * await applyTemplateStatus(store, { wamId: '1234567890', event: 'APPROVED', reason: null }, new Date().toISOString());
 */
export async function applyTemplateStatus(store: Store, update: TemplateStatusUpdate, now: string): Promise<number> {
  const effect = Object.hasOwn(TEMPLATE_EVENTS, update.event) ? TEMPLATE_EVENTS[update.event] : undefined;
  if (!effect) return 0;
  const reason = effect.keepsReason && update.reason ? update.reason : null;
  // In one transaction, so the review's row stays locked until the templates are updated (see submitTemplate).
  return store.transaction((tx) => tx.setTemplateStatus(update.wamId, effect.status, reason, now));
}

/** Statuses a template cannot be sent in. */
const UNUSABLE: ReadonlySet<TemplateStatus> = new Set<TemplateStatus>(['rejected', 'paused', 'disabled', 'failed']);

/**
 * Whether a campaign may send the company's template `templateName`: `usable` when the company
 * submitted it (on any phone number) and some submission of it is neither `rejected`, `paused`,
 * `disabled` nor `failed`; otherwise why not: never submitted, or the statuses of its submissions.
 */
export async function templateUsability(
  store: Store,
  company: CompanyRecord,
  templateName: string,
): Promise<{ usable: true } | { usable: false; statuses: TemplateStatus[] }> {
  const named = (await everyPage((p) => listTemplates(store, company, p))).filter((t) => t.template_name === templateName);
  if (named.some((t) => !UNUSABLE.has(t.status))) return { usable: true };
  return { usable: false, statuses: [...new Set(named.map((t) => t.status))] };
}
