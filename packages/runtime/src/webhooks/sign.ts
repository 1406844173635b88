import { hmac } from 'fast-sha256';

const encoder = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The key of a `whsec_` secret: the bytes its base64 part stands for (Standard Webhooks). */
function secretKey(secret: string): Uint8Array {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
}

/**
 * The Standard Webhooks headers for one attempt: `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature`, one `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret (the
 * current one and those still in a rotation's grace period), space-separated.
 */
export function signedHeaders(eventId: string, body: string, secrets: string[], at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const content = encoder.encode(`${eventId}.${timestamp}.${body}`);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => `v1,${base64(hmac(secretKey(secret), content))}`).join(' '),
  };
}
