import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { EXCERPT_BYTES } from '../../../runtime/src/webhooks/transport.ts';
import { createNodeTransport, headerList } from './node-transport.ts';

const servers: Server[] = [];
const transports: { close(): void }[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  for (const s of servers.splice(0)) await new Promise((ok) => s.close(ok));
});

/** A loopback server answering every request with `answer`; counts the connections it accepted. */
async function serve(answer: (body: string, res: import('node:http').ServerResponse) => void) {
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => answer(Buffer.concat(chunks).toString('utf8'), res));
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, connections: () => connections };
}

function transport() {
  const t = createNodeTransport({ maxSockets: 4 });
  transports.push(t);
  return t;
}

describe('createNodeTransport', () => {
  it('posts the body with its headers and returns the status, Retry-After and the body', async () => {
    let seen: { body: string; type?: string; length?: string } | undefined;
    const rx = await serve((body, res) => {
      res.writeHead(429, { 'retry-after': '30' }).end('slow down');
      seen = { body, type: res.req.headers['content-type'], length: res.req.headers['content-length'] };
    });
    const answer = await transport()({ url: rx.url, headers: { 'content-type': 'application/json' }, body: '{"a":"é"}', timeoutMs: 5000 });
    expect(answer).toEqual({ status: 429, retryAfter: '30', excerpt: 'slow down' });
    expect(seen).toEqual({ body: '{"a":"é"}', type: 'application/json', length: '10' });
  });

  it('sends to the path and query of the URL, with its Host, the headers it is given, and a Content-Length of its own', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const rx = await serve((_, res) => {
      seen.push({ ...res.req.headers, path: res.req.url });
      res.writeHead(200).end();
    });
    const send = transport();
    const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_1', 'Content-Length': '999', Host: 'elsewhere.example' };
    for (const body of ['{}', '{"b":"é"}']) await send({ url: `${rx.url}?key=1`, headers, body, timeoutMs: 5000 });
    expect(seen).toEqual([
      expect.objectContaining({
        path: '/hooks?key=1',
        host: new URL(rx.url).host,
        'content-type': 'application/json',
        'webhook-id': 'evt_1',
        'content-length': '2',
      }),
      expect.objectContaining({ host: new URL(rx.url).host, 'content-length': '10' }),
    ]);
  });

  it('keeps the first bytes of a long answer, and reuses the connection', async () => {
    const rx = await serve((_, res) => res.writeHead(200).end('x'.repeat(5000)));
    const send = transport();
    for (let i = 0; i < 3; i++) {
      const answer = await send({ url: rx.url, headers: {}, body: '{}', timeoutMs: 5000 });
      expect(answer.excerpt).toBe('x'.repeat(EXCERPT_BYTES));
    }
    expect(rx.connections()).toBe(1);
  });

  it('keeps a character cut at the excerpt limit as a replacement character', async () => {
    const rx = await serve((_, res) => res.writeHead(500).end(`${'x'.repeat(EXCERPT_BYTES - 1)}é`));
    const answer = await transport()({ url: rx.url, headers: {}, body: '{}', timeoutMs: 5000 });
    expect(answer.excerpt).toBe(`${'x'.repeat(EXCERPT_BYTES - 1)}\uFFFD`);
  });

  it('does not follow a redirect', async () => {
    const rx = await serve((_, res) => res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end());
    expect((await transport()({ url: rx.url, headers: {}, body: '{}', timeoutMs: 5000 })).status).toBe(302);
  });

  it('rejects with a TimeoutError when no answer comes in time', async () => {
    const rx = await serve((_, res) => setTimeout(() => res.end('late'), 1000));
    await expect(transport()({ url: rx.url, headers: {}, body: '{}', timeoutMs: 50 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it("rejects with the connection's error when nothing listens", async () => {
    await expect(transport()({ url: 'http://127.0.0.1:9/hooks', headers: {}, body: '{}', timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('headerList', () => {
  it('puts Host and Content-Length first and leaves out any the headers name', () => {
    expect(headerList('example.com:8080', { 'content-type': 'application/json', host: 'x', 'CONTENT-LENGTH': '1', 'webhook-id': 'evt_1' }, 12)).toEqual([
      'host',
      'example.com:8080',
      'content-length',
      '12',
      'content-type',
      'application/json',
      'webhook-id',
      'evt_1',
    ]);
    expect(headerList('example.com', {}, 0)).toEqual(['host', 'example.com', 'content-length', '0']);
  });
});
