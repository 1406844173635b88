/**
 * @engagekit/sdk/webhooks: verify the webhooks engagekit sends (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), and sign payloads for your own
 * tests. Web Crypto only, so it runs in Node, Deno, Bun, browsers and edge runtimes.
 */
import { EngageError } from './errors.ts';
import { fromBase64, toBase64 } from './internal/base64.ts';
import { randomId } from './internal/random-id.ts';
import { describeEventProblem, EVENT_TYPES } from './internal/webhook-event.ts';
import type { components } from './types.ts';

/** An order was added. */
export type OrderCreatedEvent = components['schemas']['OrderCreatedEvent'];
/** An order was updated. */
export type OrderUpdatedEvent = components['schemas']['OrderUpdatedEvent'];
/** Every event engagekit sends; narrow it on `type`. */
export type WebhookEvent = components['schemas']['WebhookEvent'];
/** `order.created` | `order.updated`. */
export type WebhookEventType = WebhookEvent['type'];

/** The request headers: a `Headers` object, or a plain object such as Node's `req.headers` (any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The raw body exactly as received: text or bytes, never parsed JSON. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** Options of `verifyWebhook`. */
export interface VerifyWebhookOptions {
  /** How far, in seconds, `webhook-timestamp` may be from now, either way (default 300: 5 minutes). */
  tolerance?: number;
  /** The current time (default: now); set it to verify a recorded payload. */
  now?: Date | number;
}

/** Options of `signWebhook`. */
export interface SignWebhookOptions {
  /** `webhook-id` (default: a fresh `msg_...`). */
  id?: string;
  /** `webhook-timestamp`, in seconds since the epoch (default: now). */
  timestamp?: number;
}

/** The three headers `signWebhook` makes (a plain object: spread it into a request's headers). */
export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Why a webhook was refused. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_secret'
  | 'invalid_body'
  | 'no_matching_signature'
  | 'invalid_payload'
  | 'unknown_event_type';

/**
 * A webhook failed verification; `code` says why and `message` says what to check. Answer such a
 * request with a 400 and do not act on it.
 */
export class WebhookVerificationError extends EngageError {
  static override readonly errorName: string = 'WebhookVerificationError';
  /** Why it was refused. */
  readonly code: WebhookVerificationErrorCode;
  /** The parsed body, when the signature was valid but the payload was not usable (`invalid_payload`, `unknown_event_type`). */
  readonly payload: unknown;

  constructor(code: WebhookVerificationErrorCode, message: string, payload?: unknown) {
    super(`Failed to verify webhook: ${message}`);
    this.code = code;
    this.payload = payload;
  }
}

const DEFAULT_TOLERANCE_S = 300;
const encoder = new TextEncoder();

function fail(code: WebhookVerificationErrorCode, message: string, payload?: unknown): never {
  throw new WebhookVerificationError(code, message, payload);
}

/** The key bytes of a `whsec_...` secret (the prefix is optional). */
function secretBytes(secret: unknown): Uint8Array<ArrayBuffer> {
  const text = typeof secret === 'string' ? secret.trim() : '';
  const bytes = fromBase64(text.startsWith('whsec_') ? text.slice(6) : text);
  if (!bytes || bytes.length === 0) {
    fail(
      'invalid_secret',
      `the secret is not a webhook secret: expected "whsec_" followed by base64, as shown when the endpoint was created (got ${typeof secret === 'string' ? `a ${secret.length}-character string` : typeof secret}).`,
    );
  }
  return new Uint8Array(bytes);
}

function secretList(secret: string | readonly string[]): string[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0) fail('invalid_secret', 'no secret given: pass the endpoint secret ("whsec_...") or a list of them while rotating.');
  return list;
}

async function hmac(key: Uint8Array<ArrayBuffer>, content: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, content));
}

/** `{id}.{timestamp}.{body}` as bytes: the body's own bytes, so nothing is re-encoded. */
function signedContent(id: string, timestamp: string, body: WebhookBody): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  if (typeof body === 'string') bytes = encoder.encode(body);
  else if (body instanceof Uint8Array) bytes = body;
  else if (body instanceof ArrayBuffer) bytes = new Uint8Array(body);
  else {
    return fail(
      'invalid_body',
      `the body must be the raw body as received (a string, Uint8Array or ArrayBuffer), not ${body === null ? 'null' : typeof body}. Parsing and re-serializing JSON changes the bytes the signature covers: in Express use express.raw({ type: 'application/json' }), in a fetch handler await request.text().`,
    );
  }
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix);
  out.set(bytes, prefix.length);
  return out;
}

/** Compares in time that depends only on the lengths, so a mismatch reveals nothing about where it is. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers)?.get === 'function') return (headers as Headers).get(name) ?? undefined;
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

function ago(seconds: number): string {
  return seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : `${seconds} seconds`;
}

/**
 * Verifies a webhook and resolves to its event, typed and checked. Rejects with `WebhookVerificationError`
 * when a header is missing, no `v1` signature matches any of the secrets, the timestamp is outside the
 * tolerance (5 minutes by default), or the payload is not an engagekit event.
 *
 * @param rawBody the body exactly as received (text or bytes), not parsed JSON
 * @param headers the request headers (`Headers`, or Node's `req.headers`)
 * @param secret the endpoint's `whsec_...` secret, or several while rotating
 *
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.WEBHOOK_SECRET);
 * if (event.type === 'order.created') console.log(event.data.order.company_order_id);
 */
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const keys = secretList(secret).map(secretBytes);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  const missing = [!id && 'webhook-id', !timestamp && 'webhook-timestamp', !signature && 'webhook-signature'].filter(Boolean);
  if (!id || !timestamp || !signature) {
    return fail(
      'missing_header',
      `the ${missing.join(', ')} header${missing.length > 1 ? 's are' : ' is'} missing. Pass the request's headers as received (a Headers object or Node's req.headers); a proxy in between may have dropped them.`,
    );
  }
  if (!/^\d{1,15}$/.test(timestamp.trim())) {
    return fail('invalid_timestamp', `the webhook-timestamp header must be whole seconds since the epoch (got ${JSON.stringify(timestamp.slice(0, 40))}).`);
  }
  const v1 = signature.split(' ').filter((s) => s.startsWith('v1,'));
  const candidates = v1.map((s) => fromBase64(s.slice(3))).filter((b): b is Uint8Array => b !== undefined);
  const content = signedContent(id, timestamp.trim(), rawBody);
  let matched = false;
  for (const key of keys) {
    const expected = await hmac(key, content);
    // Compare against every candidate, without stopping early.
    for (const candidate of candidates) matched = constantTimeEqual(expected, candidate) || matched;
  }
  if (!matched) {
    return fail(
      'no_matching_signature',
      v1.length === 0
        ? `the webhook-signature header has no "v1,<base64>" signature (got ${JSON.stringify(signature.slice(0, 60))}).`
        : `no signature matched ${keys.length > 1 ? `any of the ${keys.length} secrets` : 'the secret'}. Is it this endpoint's secret (whsec_...; after a rotation, the new one)? Is the body the raw body as received? Parsing and re-serializing JSON changes the bytes.`,
    );
  }

  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_S;
  const nowS = Math.floor((options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime()) / 1000);
  const age = nowS - Number(timestamp);
  if (age > tolerance) {
    return fail('timestamp_too_old', `the timestamp is ${ago(age)} old (tolerance: ${ago(tolerance)}). Is the server clock right, or is this a replay?`);
  }
  if (-age > tolerance) {
    return fail('timestamp_too_new', `the timestamp is ${ago(-age)} in the future (tolerance: ${ago(tolerance)}). Is this machine's clock right?`);
  }

  let payload: unknown;
  try {
    payload = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    return fail('invalid_payload', 'the signature is valid but the body is not JSON.');
  }
  const type = (payload as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && !(EVENT_TYPES as readonly string[]).includes(type)) {
    return fail(
      'unknown_event_type',
      `the signature is valid but this version of @engagekit/sdk does not know the event type "${type}" (it knows ${EVENT_TYPES.join(', ')}). Upgrade the SDK, or subscribe the endpoint to the events you handle; \`error.payload\` holds the event.`,
      payload,
    );
  }
  const problem = describeEventProblem(payload);
  if (problem) return fail('invalid_payload', `the signature is valid but the payload is not an engagekit event: ${problem}.`, payload);
  return payload as WebhookEvent;
}

/**
 * Signs a payload the way engagekit does and resolves to the three headers, for your own tests. Several
 * secrets give several signatures, as during a secret rotation.
 *
 * @example
 * const body = JSON.stringify(event);
 * const headers = await signWebhook(body, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
 * await fetch('http://localhost:8080/webhooks', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 */
export async function signWebhook(
  rawBody: WebhookBody,
  secret: string | readonly string[],
  options: SignWebhookOptions = {},
): Promise<WebhookSignatureHeaders> {
  const keys = secretList(secret).map(secretBytes);
  const id = options.id ?? `msg_${randomId().replaceAll('-', '')}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  if (!/^\d{1,15}$/.test(timestamp)) throw new TypeError(`signWebhook: timestamp must be whole seconds since the epoch (got ${options.timestamp})`);
  const content = signedContent(id, timestamp, rawBody);
  const signatures = await Promise.all(keys.map(async (key) => `v1,${toBase64(await hmac(key, content))}`));
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
