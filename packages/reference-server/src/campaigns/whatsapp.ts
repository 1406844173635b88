import { type ChannelAdapter, type OutboundMessage, PAIR_GAP_MS } from '@engagekit/runtime';

/** Settings of the WhatsApp Cloud API channel. */
interface WhatsAppOptions {
  /** A system-user access token of the WhatsApp Business account. */
  accessToken: string;
  /** The sending phone number's id. */
  phoneNumberId: string;
  /** Base URL, default `https://graph.facebook.com/v21.0`. */
  baseUrl?: string;
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
  /** The number's messages a second (WHATSAPP_MESSAGES_PER_SECOND), kept by every instance together. Default: no pace. */
  messagesPerSecond?: number;
  /** How many messages a chunk hands over at once (`inFlightForPace`). Default 1. */
  inFlight?: number;
}

const text = (t: string) => ({ type: 'text', text: t });

/** The Cloud API request body for one template message (header, body and carousel cards). */
function whatsappTemplateBody(message: OutboundMessage) {
  const { template } = message;
  const components: Record<string, unknown>[] = [];
  if (template.header.length > 0) components.push({ type: 'header', parameters: template.header.map(text) });
  if (template.body.length > 0) components.push({ type: 'body', parameters: template.body.map(text) });
  if (template.cards.length > 0) {
    components.push({
      type: 'carousel',
      cards: template.cards.map((card, card_index) => ({
        card_index,
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: card.image_url } }] },
          ...(card.body.length > 0 ? [{ type: 'body', parameters: card.body.map(text) }] : []),
        ],
      })),
    });
  }
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    template: { name: template.name, language: { code: template.language }, ...(components.length > 0 ? { components } : {}) },
    // WhatsApp echoes it on every status webhook of the message, so a status finds its message by it.
    biz_opaque_callback_data: message.messageId,
  };
}

/** The error of a Cloud API answer that is not 2xx (a Graph API error: its title is part of `message`). */
interface GraphError {
  message?: string;
  title?: string;
  code?: number;
}

/** Errors of a connection that never carried the request: refused, no route, no name, or not made in time. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a send that got no answer may have reached WhatsApp: all but a connection that was never made (fetch's cause names it). */
function mayHaveReached(error: unknown): boolean {
  // One address's error, or each address's (an AggregateError) when a name had several.
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | null)?.cause;
  const codes = cause?.errors?.map((e) => e.code) ?? [cause?.code];
  return !codes.every((code) => typeof code === 'string' && NOT_SENT.has(code));
}

/** A `Retry-After` header in ms: seconds, or an HTTP date; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * Sends template messages through the WhatsApp Cloud API (`POST /{phone-number-id}/messages`), each
 * with its `messageId` as `biz_opaque_callback_data`. An accepted message is `sent` with its `wamid`;
 * delivery and read receipts arrive later through WhatsApp's status webhooks, which the server
 * receives (`channels/whatsapp-webhook.ts`). A refused one is `failed` with Meta's error code.
 */
export function createWhatsAppChannel(opts: WhatsAppOptions): ChannelAdapter {
  const base = (opts.baseUrl ?? 'https://graph.facebook.com/v21.0').replace(/\/$/, '');
  const send = opts.fetch ?? ((r: Request) => fetch(r));
  return {
    name: 'whatsapp',
    inFlight: opts.inFlight ?? 1,
    ...(opts.messagesPerSecond !== undefined && {
      pace: { key: `whatsapp:${opts.phoneNumberId}`, perSecond: opts.messagesPerSecond, pairGapMs: PAIR_GAP_MS },
    }),
    async send(message) {
      let res: Response;
      try {
        res = await send(
          new Request(`${base}/${encodeURIComponent(opts.phoneNumberId)}/messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${opts.accessToken}`, 'content-type': 'application/json' },
            body: JSON.stringify(whatsappTemplateBody(message)),
            signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
          }),
        );
      } catch (e) {
        return {
          status: 'failed',
          providerMessageId: null,
          error: `WhatsApp did not answer: ${(e as Error).message}`,
          failure: { httpStatus: null, code: null, mayHaveReached: mayHaveReached(e) },
        };
      }
      const body = (await res.json().catch(() => ({}))) as { messages?: { id?: string }[]; error?: GraphError };
      if (!res.ok) {
        const code = typeof body.error?.code === 'number' ? body.error.code : null;
        return {
          status: 'failed',
          providerMessageId: null,
          error: `WhatsApp answered ${res.status}: ${body.error?.message ?? body.error?.title ?? 'no error message'}${code !== null ? ` (code ${code})` : ''}`,
          errorCode: code,
          failure: { httpStatus: res.status, code, mayHaveReached: true },
          retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
        };
      }
      return { status: 'sent', providerMessageId: body.messages?.[0]?.id ?? null, error: null };
    },
  };
}
