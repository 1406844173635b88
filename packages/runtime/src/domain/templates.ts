/** WhatsApp templates: a submitted template is kept per (name, phone number), with its status. */
import type { SubmitTemplateBody } from '@engagekit/contract';
import type { Store } from '../store/ports.ts';
import type { CompanyRecord, TemplateRecord, WriteContext } from '../store/types.ts';

/**
 * Stores or updates the template (name, phone number) of the company. With a `wam_id` (WhatsApp's
 * id for it) its status is `submitted`; without one it is `failed`, with the reason.
 */
export function submitTemplate(store: Store, write: WriteContext, company: CompanyRecord, template: SubmitTemplateBody): Promise<TemplateRecord> {
  const { now } = write;
  return store.upsertTemplate({
    id: write.newId('tpl'),
    company_uuid: company.uuid,
    template_name: template.template_name,
    phone_number: template.phone_number,
    wam_id: template.wam_id ?? null,
    status: template.wam_id ? 'submitted' : 'failed',
    reason: template.wam_id ? null : 'No wam_id was given: the template was not submitted to WhatsApp.',
    created_at: now,
    updated_at: now,
  });
}
