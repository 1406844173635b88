/**
 * A fetch-style handler: a Next.js route handler (`export const POST = ...`), a Cloudflare Worker, Deno
 * or Bun. `request.text()` is the raw body; read it once, before anything else reads the request.
 */
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@engagekit/sdk/webhooks';

export function fetchReceiver(secret: string, handle: (event: WebhookEvent) => void) {
  return async function POST(request: Request): Promise<Response> {
    try {
      const event = await verifyWebhook(await request.text(), request.headers, secret);
      handle(event);
      return new Response(null, { status: 204 });
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      return new Response('invalid signature', { status: 400 });
    }
  };
}
