import { createServer, type IncomingHttpHeaders } from 'node:http';

/** One request a test receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers; `delayMs` holds the answer back. */
export type Responder = (r: Received, index: number) => { status: number; headers?: Record<string, string>; delayMs?: number; body?: string };

/** A webhook receiver on 127.0.0.1 that records every request and answers as `respond` says (200 by default). */
export async function startReceiver(respond: Responder = () => ({ status: 200, body: 'ok' })) {
  const received: Received[] = [];
  /** Requests whose answer went out on a live connection (a 2xx of these acknowledges the delivery). */
  const answered: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = received.push(r) - 1;
      for (const w of [...waiters]) {
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      const answer = respond(r, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
        answered.push(r);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answered,
    /** Resolves once `n` requests have arrived; rejects after `timeoutMs`. */
    waitFor(n: number, timeoutMs = 20_000) {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${n} webhook requests arrived in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
