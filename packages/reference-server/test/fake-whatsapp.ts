import { createServer } from 'node:http';

/** One message the fake Graph API received. */
export interface ReceivedMessage {
  /** The recipient as the Cloud API body names it (digits, no "+"). */
  to: string;
  /** The request's idempotency key header, when the adapter sent one. */
  idempotencyKey: string | undefined;
}

/** A fake WhatsApp Cloud API (Graph API) on 127.0.0.1: what the test sees of every message sent. */
export interface FakeWhatsApp {
  /** The base URL to give the server as WHATSAPP_API_URL. */
  url: string;
  /** Every message received, in arrival order. */
  received: ReceivedMessage[];
  /** Recipients received more than once, with how many times. */
  duplicates(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts a fake Graph API that accepts `POST /{phone-number-id}/messages`, records the message and
 * answers as the Cloud API does (a `wamid`) after `delayMs`, so a run of many messages takes a while.
 */
export async function startFakeWhatsApp(options: { delayMs?: number } = {}): Promise<FakeWhatsApp> {
  const received: ReceivedMessage[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as { to: string };
      const key = req.headers['idempotency-key'] ?? req.headers['x-idempotency-key'];
      received.push({ to: body.to, idempotencyKey: Array.isArray(key) ? key[0] : key });
      const wamid = `wamid.${received.length}`;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: wamid }] }));
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v21.0`,
    received,
    duplicates() {
      const seen = new Map<string, number>();
      for (const m of received) seen.set(m.to, (seen.get(m.to) ?? 0) + 1);
      return new Map([...seen].filter(([, n]) => n > 1));
    },
    close() {
      server.closeAllConnections();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}
