/**
 * Hono: read the body with `c.req.text()` before anything parses it (`c.req.json()` would lose the
 * exact bytes the signature is over), and pass Hono's request headers as they are.
 */
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@engagekit/sdk/webhooks';
import { Hono } from 'hono';

export function honoReceiver(secret: string, handle: (event: WebhookEvent) => void) {
  const app = new Hono();
  app.post('/engagekit/webhooks', async (c) => {
    try {
      const event = await verifyWebhook(await c.req.text(), c.req.raw.headers, secret);
      handle(event);
      return c.body(null, 204);
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      return c.text('invalid signature', 400);
    }
  });
  return app;
}
