import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type AppEnv, type ChannelStatus, HttpError, type Logger, readBodyBytes, type TemplateStatusUpdate } from '@engagekit/runtime';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import * as z from 'zod';

/** Where WhatsApp's webhooks are received: the callback URL given to Meta is this path on the server's PORT. */
export const WHATSAPP_WEBHOOK_PATH = '/channels/whatsapp/webhook';

/** The largest notification read (1 MiB); Meta's are a few KB. */
export const WHATSAPP_WEBHOOK_MAX_BYTES = 1024 * 1024;

/** What the WhatsApp webhook route needs. */
export interface WhatsAppWebhookOptions {
  /** The Meta app's secret: every notification's `X-Hub-Signature-256` is its HMAC-SHA256 of the raw body. */
  appSecret: string;
  /** The token typed into Meta's webhook settings, which its subscription handshake sends back. */
  verifyToken: string;
  /** Applies every message status of one notification, in one call. */
  applyStatuses(statuses: ChannelStatus[]): Promise<void>;
  /** Applies the template reviews of one notification. */
  applyTemplateUpdates(updates: TemplateStatusUpdate[]): Promise<void>;
  logger: Logger;
  /** How many bytes a notification may have (default WHATSAPP_WEBHOOK_MAX_BYTES). */
  maxBytes?: number;
}

const unixSeconds = z.union([z.string().regex(/^\d{1,11}$/, 'must be unix seconds'), z.int().min(0).max(99_999_999_999)]);

const StatusSchema = z.object({
  id: z.string().min(1, 'must be the message id (wamid)'),
  status: z.string().min(1),
  timestamp: unixSeconds,
  biz_opaque_callback_data: z.string().optional(),
  errors: z.array(z.object({ code: z.int(), title: z.string().optional(), message: z.string().optional() })).optional(),
});

// Unknown fields are dropped, not refused: Meta adds fields to its payloads.
const MessagesValueSchema = z.object({ statuses: z.array(StatusSchema).optional() });

const TemplateValueSchema = z.object({
  event: z.string().min(1),
  message_template_id: z.union([z.int().min(0), z.string().min(1)]),
  reason: z.string().nullish(),
});

const NotificationSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string(), value: z.unknown() })) })),
});

/** The statuses a message may take here; others Meta reports (`deleted`, `warning`...) are not applied. */
const KNOWN_STATUSES = new Set<string>(['sent', 'delivered', 'read', 'failed']);

/** What one notification carries for the runtime, and how much of it was set aside. */
export interface WhatsAppNotification {
  statuses: ChannelStatus[];
  templateUpdates: TemplateStatusUpdate[];
  /** Changes of other fields, incoming messages and statuses of unknown kinds: not applied. */
  ignored: number;
}

function invalid(error: z.ZodError, prefix: (string | number)[]): HttpError {
  const issues = error.issues.map((i) => ({ path: [...prefix, ...i.path].join('.'), message: i.message }));
  const first = issues[0];
  return new HttpError(400, `Invalid WhatsApp notification${first ? `: ${first.path} ${first.message}` : ''}`, { issues });
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, prefix: (string | number)[]): T {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(r.error, prefix);
  return r.data;
}

const isoOf = (seconds: string | number) => new Date(Number(seconds) * 1000).toISOString();

/**
 * A parsed notification's statuses and template reviews, in the runtime's terms. Throws a 400 HttpError
 * naming the first bad field (`entry.0.changes.1.value.statuses.0.timestamp`).
 *
 * @example whatsappNotification({ object: 'whatsapp_business_account', entry: [] }) // { statuses: [], templateUpdates: [], ignored: 0 }
 */
export function whatsappNotification(body: unknown): WhatsAppNotification {
  const notification = parsed(NotificationSchema, body, []);
  const out: WhatsAppNotification = { statuses: [], templateUpdates: [], ignored: 0 };
  if (notification.object !== 'whatsapp_business_account') return { ...out, ignored: notification.entry.length };
  notification.entry.forEach((entry, e) => {
    entry.changes.forEach((change, c) => {
      const at = ['entry', e, 'changes', c, 'value'];
      if (change.field === 'messages') {
        const raw = change.value as { messages?: unknown } | null;
        if (raw && typeof raw === 'object' && raw.messages !== undefined) out.ignored++;
        for (const s of parsed(MessagesValueSchema, change.value, at).statuses ?? []) {
          if (!KNOWN_STATUSES.has(s.status)) {
            out.ignored++;
            continue;
          }
          const first = s.errors?.[0];
          out.statuses.push({
            providerMessageId: s.id,
            messageId: s.biz_opaque_callback_data ?? null,
            status: s.status as ChannelStatus['status'],
            at: isoOf(s.timestamp),
            error: s.status === 'failed' && first ? { code: first.code, title: first.title ?? first.message ?? '' } : null,
          });
        }
      } else if (change.field === 'message_template_status_update') {
        const t = parsed(TemplateValueSchema, change.value, at);
        out.templateUpdates.push({ wamId: String(t.message_template_id), event: t.event, reason: !t.reason || t.reason === 'NONE' ? null : t.reason });
      } else {
        out.ignored++;
      }
    });
  });
  return out;
}

/**
 * Whether `header` (`sha256=<hex>`) is the HMAC-SHA256 of `body` keyed with `secret`, compared in
 * constant time.
 */
export function signatureMatches(body: Uint8Array, header: string, secret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Equal strings, compared in constant time (over their digests, which have one length). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** Meta's subscription handshake: the challenge back when the mode and token are right. */
function handshake(c: Context<AppEnv>, verifyToken: string): Response {
  const mode = c.req.query('hub.mode');
  const token = c.req.query('hub.verify_token');
  const challenge = c.req.query('hub.challenge');
  const missing = (
    [
      ['hub.mode', mode],
      ['hub.verify_token', token],
      ['hub.challenge', challenge],
    ] as const
  ).filter(([, v]) => !v);
  if (missing.length > 0) {
    throw new HttpError(400, `Missing query parameter ${missing.map(([k]) => k).join(', ')}`, {
      issues: missing.map(([k]) => ({ path: k, message: 'is required' })),
    });
  }
  if (mode !== 'subscribe') throw new HttpError(403, 'hub.mode must be subscribe');
  if (!sameSecret(token ?? '', verifyToken)) throw new HttpError(403, 'hub.verify_token does not match WHATSAPP_VERIFY_TOKEN');
  return c.text(challenge ?? '', 200);
}

/** A verified notification parsed from its bytes: 400 when it is not UTF-8 JSON, or a field is wrong. */
function notificationOf(bytes: Uint8Array): WhatsAppNotification {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new HttpError(400, 'Malformed JSON body', { issues: [{ path: '', message: e instanceof Error ? e.message : 'does not parse as JSON' }] });
  }
  return whatsappNotification(body);
}

/**
 * Registers `GET` and `POST` on WHATSAPP_WEBHOOK_PATH, as the server's pages are (createApp's `pages`):
 * the subscription handshake, and notifications whose signature is checked over the raw bytes before
 * anything is parsed (401 and nothing applied when it is missing or wrong). A notification's statuses
 * go to one `applyStatuses` call, its template reviews to `applyTemplateUpdates`, and it is answered
 * 200 once both are done; an error thrown by either reaches the app's `onError` (503 for a store that
 * cannot reach its database, which Meta retries; else a logged 500). Incoming messages and other
 * fields are answered 200 and set aside.
 */
export function whatsappWebhookRoutes(app: Hono<AppEnv>, pageHeaders: MiddlewareHandler<AppEnv>, opts: WhatsAppWebhookOptions): void {
  const limit = opts.maxBytes ?? WHATSAPP_WEBHOOK_MAX_BYTES;
  app.get(WHATSAPP_WEBHOOK_PATH, pageHeaders, (c) => handshake(c, opts.verifyToken));
  app.post(WHATSAPP_WEBHOOK_PATH, pageHeaders, async (c) => {
    const bytes = await readBodyBytes(c.req.raw, limit);
    const signature = c.req.header('x-hub-signature-256');
    if (!signature || !signatureMatches(bytes, signature, opts.appSecret)) {
      opts.logger.warn({ requestId: c.get('requestId'), signature: signature ? 'wrong' : 'missing' }, 'a WhatsApp notification was refused: bad signature');
      throw new HttpError(
        401,
        signature ? 'X-Hub-Signature-256 does not match the body: is WHATSAPP_APP_SECRET the app secret?' : 'X-Hub-Signature-256 is missing',
      );
    }
    const { statuses, templateUpdates, ignored } = notificationOf(bytes);
    if (statuses.length > 0) await opts.applyStatuses(statuses);
    if (templateUpdates.length > 0) await opts.applyTemplateUpdates(templateUpdates);
    return c.json({ statuses: statuses.length, template_updates: templateUpdates.length, ignored });
  });
}
