/** The webhook receiver tests deliver to: one HTTP server on loopback that records what it gets. */
import { createServer, type IncomingHttpHeaders } from 'node:http';

/** One request a test receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * What the receiver answers. `delayMs` holds the answer back that long; `after` holds it until the
 * promise settles (an answer whose connection is gone by then is not sent).
 */
export type Responder = (
  r: Received,
  index: number,
) => { status: number; headers?: Record<string, string>; delayMs?: number; after?: Promise<unknown>; body?: string };

/** A webhook receiver on 127.0.0.1 that records every request and answers as `respond` says (200 by default). */
export async function startReceiver(respond: Responder = () => ({ status: 200, body: 'ok' })) {
  const received: Received[] = [];
  /** Requests whose answer went out on a live connection (a 2xx of these acknowledges the delivery). */
  const answered: Received[] = [];
  const waiters: { match: (r: Received, count: number) => boolean; resolve: (r: Received) => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = received.push(r) - 1;
      for (const w of [...waiters]) {
        if (w.match(r, received.length)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(r);
        }
      }
      const answer = respond(r, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
        answered.push(r);
      };
      if (answer.after) void answer.after.finally(send);
      else if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;

  /** Resolves with the first request (already received, or the next) for which `match` holds; rejects after `timeoutMs`. */
  function first(match: (r: Received, count: number) => boolean, describe: () => string, timeoutMs: number): Promise<Received> {
    const seen = received.find((r, i) => match(r, i + 1));
    if (seen) return Promise.resolve(seen);
    return new Promise<Received>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (r: Received) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(describe()));
      }, timeoutMs);
      waiters.push(waiter);
    });
  }

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answered,
    /** Resolves once `n` requests have arrived; rejects after `timeoutMs`. */
    async waitFor(n: number, timeoutMs = 20_000): Promise<void> {
      await first(
        (_, count) => count >= n,
        () => `only ${received.length} of ${n} webhook requests arrived in ${timeoutMs} ms`,
        timeoutMs,
      );
    },
    /** The first request (past or future) whose raw body contains `text`; rejects after `timeoutMs`. */
    next(text: string, timeoutMs = 20_000): Promise<Received> {
      return first(
        (r) => r.body.includes(text),
        () => `no webhook request containing ${text} arrived in ${timeoutMs} ms`,
        timeoutMs,
      );
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
