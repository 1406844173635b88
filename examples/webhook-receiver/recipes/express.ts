/**
 * Express: read the body raw. `express.json()` would parse it first, and a signature is over the bytes
 * sent, not over JSON re-serialised: `express.raw()` on this route keeps them.
 */
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@engagekit/sdk/webhooks';
import express from 'express';

export function expressReceiver(secret: string, handle: (event: WebhookEvent) => void) {
  const app = express();
  app.post('/engagekit/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
    try {
      const event = await verifyWebhook(req.body as Buffer, req.headers, secret);
      res.sendStatus(204);
      handle(event);
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      res.status(400).send('invalid signature');
    }
  });
  return app;
}
