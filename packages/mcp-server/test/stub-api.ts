/** A stand-in for the live API on loopback, for cases a real server never answers (200,000 issues) or answers too fast. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running stub: its base URL, what it was asked, and a way to stop it. */
export interface StubApi {
  url: string;
  /** `METHOD /path` of each request, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a stub whose `answer` writes every response (after `requests` records it). */
export async function startStubApi(answer: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<StubApi> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${new URL(req.url ?? '/', 'http://stub').pathname}`);
    req.resume();
    req.once('end', () => void answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer with a request id. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_stub_${status}` }).end(JSON.stringify(body));
}
