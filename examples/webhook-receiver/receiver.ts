/**
 * A webhook receiver for engagekit order events: plain node:http, no framework.
 *
 * - Verifies every delivery with `verifyWebhook` (signature, timestamp within 5 minutes) against
 *   the raw body, before trusting anything in it: a bad one gets 400 and is never handled.
 * - Answers 204 at once and handles the event afterwards, so slow work never makes engagekit time out and retry.
 * - Delivery is at least once: it drops an event id it has seen (keep that set in your database).
 */
import { createServer } from 'node:http';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@engagekit/sdk/webhooks';

export interface ReceiverOptions {
  /** The endpoint's signing secret (`whsec_...`), from the admin API or the settings page. */
  secret: string;
  /** Your work for each event, once per event id. */
  handle: (event: WebhookEvent) => Promise<void> | void;
  port?: number;
  host?: string;
  /** Told about refused deliveries (default: console.warn). */
  onRefused?: (reason: string) => void;
}

const MAX_BODY = 1024 * 1024;

/** Starts the receiver; resolves once it listens. */
export async function startWebhookReceiver(opts: ReceiverOptions) {
  const seen = new Set<string>();
  const refused = opts.onRefused ?? ((reason: string) => console.warn(`webhook refused: ${reason}`));
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let event: WebhookEvent;
      try {
        event = await verifyWebhook(raw, req.headers, opts.secret);
      } catch (e) {
        refused(e instanceof WebhookVerificationError ? e.message : String(e));
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid signature');
        return;
      }
      res.writeHead(204).end();
      if (seen.has(event.id)) return;
      seen.add(event.id);
      try {
        await opts.handle(event);
      } catch (e) {
        // Already acknowledged: keep the event for a retry of your own (a queue, a table).
        console.error(`handling ${event.type} ${event.id} failed:`, e);
      }
    });
  });
  await new Promise<void>((ok) => server.listen(opts.port ?? 8080, opts.host ?? '127.0.0.1', ok));
  const address = server.address() as { port: number };
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${address.port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
