/** The bodies of the webhooks the Cloud API posts: a message's status, and a template's status update. */
import { errorTitle } from './graph-errors.ts';
import type { TemplateEvent } from './options.ts';

/** What a status webhook says of its message. */
export interface StatusFacts {
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  wamid: string;
  recipientId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  bizOpaqueCallbackData?: string;
  category: string;
  failure?: { code: number; title?: string };
}

const unixSeconds = () => String(Math.floor(Date.now() / 1000));

/** A `messages` webhook carrying one status. */
export function statusPayload(f: StatusFacts) {
  const failed = f.status === 'failed' && f.failure;
  const title = failed ? (f.failure?.title ?? errorTitle(f.failure?.code ?? 0)) : '';
  const status = {
    id: f.wamid,
    status: f.status,
    timestamp: unixSeconds(),
    recipient_id: f.recipientId,
    ...(f.bizOpaqueCallbackData === undefined ? {} : { biz_opaque_callback_data: f.bizOpaqueCallbackData }),
    ...(failed
      ? {
          errors: [
            {
              code: f.failure?.code,
              title,
              message: title,
              error_data: { details: `${title} (emulated for recipient ${f.recipientId})` },
              href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
            },
          ],
        }
      : { pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: f.category.toLowerCase() } }),
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: f.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: f.displayPhoneNumber, phone_number_id: f.phoneNumberId },
              statuses: [status],
            },
          },
        ],
      },
    ],
  };
}

/** What a template status webhook says. */
export interface TemplateFacts {
  wabaId: string;
  event: TemplateEvent;
  id: string;
  name: string;
  language: string;
  reason: string;
}

/** A `message_template_status_update` webhook. */
export function templatePayload(f: TemplateFacts) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: f.wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: f.event,
              message_template_id: Number(f.id),
              message_template_name: f.name,
              message_template_language: f.language,
              reason: f.reason,
            },
          },
        ],
      },
    ],
  };
}
