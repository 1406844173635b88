import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers for one attempt: `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature`, one `v1,<base64 HMAC-SHA256>` per secret (the current one and those still
 * in a rotation's grace period), space-separated.
 */
export function signedHeaders(eventId: string, body: string, secrets: string[], at: Date): Record<string, string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, timestamp, body));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': signatures.join(' '),
  };
}
