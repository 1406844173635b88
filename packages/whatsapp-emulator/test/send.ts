import type { WhatsAppEmulator } from '../src/index.ts';

/** A template send body, with `overrides` merged over it. */
export function templateSend(to: string, overrides: Record<string, unknown> = {}) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] },
    ...overrides,
  };
}

/** POSTs `body` to the emulator's messages path; the answer's status and JSON. */
export async function send(wa: WhatsAppEmulator, body: unknown, options: { token?: string; phoneNumberId?: string } = {}) {
  const res = await fetch(`${wa.apiUrl}/${options.phoneNumberId ?? wa.phoneNumberId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token ?? wa.accessToken}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the Graph API's answers field by field.
  return { status: res.status, body: (await res.json()) as any };
}
