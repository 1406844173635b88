import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { EXCERPT_BYTES } from '../../../runtime/src/webhooks/transport.ts';
import { createNodeTransport, headerList, type NodeTransportOptions } from './node-transport.ts';

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

/** A transport to the loopback servers above (private targets allowed), or with `options` of its own. */
function transport(options: NodeTransportOptions = { allowPrivate: true }) {
  const t = createNodeTransport({ maxSockets: 4, ...options });
  transports.push(t);
  return t;
}

/** A resolver that answers each call with the next of `answers` (the last one again once they run out), counting the calls. */
function resolverAnswering(...answers: string[]) {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    asked.push(host);
    const address = answers[Math.min(asked.length, answers.length) - 1] as string;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return { resolve, asked };
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

describe('createNodeTransport, without private targets allowed', () => {
  const post = (send: ReturnType<typeof transport>, url: string) => send({ url, headers: {}, body: '{}', timeoutMs: 5000 });

  it('connects to the address its own lookup checked: a name that answers a public address, then a private one (DNS rebinding), is refused', async () => {
    let reached = 0;
    const rx = await serve((_, res) => {
      reached++;
      res.writeHead(200).end();
    });
    const port = new URL(rx.url).port;
    // The first answer is what a check made before connecting would have seen; the connection asks again.
    const rebinding = resolverAnswering('93.184.216.34', '127.0.0.1');
    await rebinding.resolve('rebind.test');
    const send = transport({ resolve: rebinding.resolve });
    await expect(post(send, `http://rebind.test:${port}/hooks`)).rejects.toMatchObject({
      name: 'WebhookTargetError',
      message: expect.stringMatching(/rebind\.test resolves to 127\.0\.0\.1 \(loopback\).*WEBHOOK_ALLOW_PRIVATE=1/),
    });
    expect(rebinding.asked).toEqual(['rebind.test', 'rebind.test']);
    expect(reached).toBe(0);
  });

  it('refuses a name any of whose addresses is not global unicast, in any IPv6 form', async () => {
    for (const address of ['10.0.0.1', '::ffff:7f00:1', '64:ff9b::a9fe:a9fe', '2002:c0a8:101::', 'fec0::1', 'fd00::1']) {
      const send = transport({
        resolve: async () => [
          { address: '93.184.216.34', family: 4 },
          { address, family: address.includes(':') ? 6 : 4 },
        ],
      });
      await expect(post(send, 'http://hooks.test/x'), address).rejects.toMatchObject({ name: 'WebhookTargetError', message: expect.stringContaining(address) });
    }
  });

  it('refuses an IP literal that is not global unicast without connecting', async () => {
    let reached = 0;
    const rx = await serve((_, res) => {
      reached++;
      res.writeHead(200).end();
    });
    const port = new URL(rx.url).port;
    const send = transport({});
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      await expect(post(send, `http://${host}:${port}/hooks`), host).rejects.toMatchObject({ name: 'WebhookTargetError' });
    }
    expect(reached).toBe(0);
  });

  it('sends to the address its lookup gave once private targets are allowed', async () => {
    const rx = await serve((_, res) => res.writeHead(204).end());
    const local = resolverAnswering('127.0.0.1');
    const answer = await post(transport({ allowPrivate: true, resolve: local.resolve }), `http://receiver.test:${new URL(rx.url).port}/hooks`);
    expect(answer.status).toBe(204);
    expect(local.asked).toEqual(['receiver.test']);
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
