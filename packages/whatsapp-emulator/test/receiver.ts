import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A status as a webhook carried it. */
export interface ReceivedStatus {
  id: string;
  status: string;
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  errors?: { code: number; title: string; message: string; error_data: { details: string } }[];
}

/** One webhook the receiver took, with whether its signature held. */
export interface ReceivedWebhook {
  signatureOk: boolean;
  answered: number;
  body: {
    object: string;
    entry: {
      id: string;
      changes: { field: string; value: { statuses?: ReceivedStatus[]; metadata?: unknown; event?: string; message_template_name?: string; reason?: string } }[];
    }[];
  };
}

/**
 * A callback receiver on 127.0.0.1, as a business runs one: it answers the `hub.mode=subscribe`
 * handshake when the verify token matches, checks each post's `X-Hub-Signature-256` with the app
 * secret (constant-time), and answers 500 to the first `failures` posts.
 */
export async function startReceiver(options: { appSecret: string; verifyToken: string; failures?: number }) {
  const received: ReceivedWebhook[] = [];
  let failures = options.failures ?? 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (req.method === 'GET') {
      const ok = url.searchParams.get('hub.mode') === 'subscribe' && url.searchParams.get('hub.verify_token') === options.verifyToken;
      res.writeHead(ok ? 200 : 403).end(ok ? (url.searchParams.get('hub.challenge') ?? '') : 'wrong verify token');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', options.appSecret).update(raw).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
      const signatureOk = given.length === expected.length && timingSafeEqual(given, expected);
      const answered = failures > 0 ? 500 : 200;
      if (failures > 0) failures--;
      received.push({ signatureOk, answered, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/whatsapp`,
    received,
    /** The statuses of the posts answered 200, in arrival order. */
    statuses(): ReceivedStatus[] {
      return received
        .filter((w) => w.answered === 200)
        .flatMap((w) => w.body.entry.flatMap((e) => e.changes.filter((c) => c.field === 'messages').flatMap((c) => c.value.statuses ?? [])));
    },
    /** The template updates answered 200, in arrival order. */
    templateUpdates() {
      return received
        .filter((w) => w.answered === 200)
        .flatMap((w) => w.body.entry.flatMap((e) => e.changes.filter((c) => c.field === 'message_template_status_update').map((c) => c.value)));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
