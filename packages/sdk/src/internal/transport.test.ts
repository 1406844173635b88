import { execFile } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { apiError, fakeFetch, hangingFetch, json } from '../../test/helpers/fake-fetch.ts';
import { APIConnectionError, APITimeoutError, APIUserAbortError, EngageError } from '../errors.ts';
import { attemptTimer, type SendOptions, send, sendCall, type TransportDeps } from './transport.ts';

const NOW = Date.parse('2026-01-05T08:00:00Z');

/** Deps that record the backoff asked for instead of waiting. */
function recordingDeps() {
  const sleeps: number[] = [];
  const deps: TransportDeps = {
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
    random: () => 0,
    now: () => NOW,
  };
  return { deps, sleeps };
}

const post = (body = '{"name":"spring"}') =>
  new Request('http://api.test/agency/createCampaign?uuid=u', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const get = () => new Request('http://api.test/agency/getCampaignData?uuid=u');

function options(fetch: SendOptions['fetch'], extra: Partial<SendOptions> = {}): SendOptions {
  return { fetch, maxRetries: 2, timeout: 60_000, ...extra };
}

describe('send', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries a %i and returns the answer that follows', async (status) => {
    const { deps, sleeps } = recordingDeps();
    const f = fakeFetch((_, n) => (n === 1 ? apiError(status, 'x', 'try again') : json(200, { ok: true })));
    const res = await send(get(), options(f.fetch), deps);
    expect(res.status).toBe(200);
    expect(f.calls).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409, 413, 415])('does not retry a %i', async (status) => {
    const { deps } = recordingDeps();
    const f = fakeFetch(() => apiError(status, 'x', 'no'));
    const res = await send(post(), options(f.fetch), deps);
    expect(res.status).toBe(status);
    expect(f.calls).toHaveLength(1);
  });

  it('retries a 409 that says when (an Idempotency-Key still in progress), with the same key, after its Retry-After', async () => {
    const { deps, sleeps } = recordingDeps();
    const f = fakeFetch((_, n) => (n === 1 ? apiError(409, 'idempotency_in_progress', 'still running', {}, { 'retry-after': '2' }) : json(201, { ok: true })));
    const res = await send(post(), options(f.fetch), deps);
    expect(res.status).toBe(201);
    expect(f.calls).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
    const keys = f.calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  it('makes maxRetries + 1 attempts, then returns the last error answer', async () => {
    const { deps, sleeps } = recordingDeps();
    const f = fakeFetch(() => apiError(503, 'unavailable', 'down'));
    const res = await send(get(), options(f.fetch, { maxRetries: 3 }), deps);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: 'down' });
    expect(f.calls).toHaveLength(4);
    // Exponential backoff (random() = 0: no jitter taken off).
    expect(sleeps).toEqual([500, 1000, 2000]);
  });

  it('makes one attempt with maxRetries 0', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch(() => apiError(500, 'internal_error', 'boom'));
    expect((await send(get(), options(f.fetch, { maxRetries: 0 }), deps)).status).toBe(500);
    expect(f.calls).toHaveLength(1);
  });

  it('waits what Retry-After asks, in seconds or as an HTTP date, capped at a minute', async () => {
    const { deps, sleeps } = recordingDeps();
    const answers = [
      apiError(429, 'rate_limited', 'slow down', {}, { 'retry-after': '2' }),
      apiError(503, 'unavailable', 'later', {}, { 'retry-after': new Date(NOW + 7_000).toUTCString() }),
      apiError(429, 'rate_limited', 'much later', {}, { 'retry-after': '3600' }),
      json(200, {}),
    ];
    const f = fakeFetch((_, n) => answers[n - 1] as Response);
    const res = await send(get(), options(f.fetch, { maxRetries: 3 }), deps);
    expect(res.status).toBe(200);
    expect(sleeps).toEqual([2000, 7000, 60_000]);
  });

  it('sends one Idempotency-Key on every attempt of a POST, and the same body each time', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch((_, n) => (n < 3 ? apiError(500, 'internal_error', 'boom') : json(201, {})));
    await send(post('{"name":"once"}'), options(f.fetch), deps);
    const keys = f.calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^engagekit-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(f.calls.map((c) => c.body)).toEqual(['{"name":"once"}', '{"name":"once"}', '{"name":"once"}']);
    expect(f.calls.every((c) => c.headers.get('content-type') === 'application/json')).toBe(true);
  });

  it('gives two calls two keys, uses the key it is given, and sends none on a GET', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch(() => json(200, {}));
    await send(post(), options(f.fetch), deps);
    await send(post(), options(f.fetch), deps);
    await send(post(), options(f.fetch, { idempotencyKey: 'order-42' }), deps);
    await send(get(), options(f.fetch), deps);
    const [a, b, c, d] = f.calls.map((x) => x.headers.get('idempotency-key'));
    expect(a).not.toBe(b);
    expect(c).toBe('order-42');
    expect(d).toBeNull();
  });

  it('retries connection errors and rejects with APIConnectionError when they persist', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    });
    const err = await send(post(), options(f.fetch), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toContain('ECONNREFUSED');
    expect((err as Error).cause).toBeInstanceOf(TypeError);
    expect(f.calls).toHaveLength(3);
  });

  it('recovers when a connection error is followed by an answer', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch((_, n) => {
      if (n === 1) throw new TypeError('fetch failed');
      return json(200, { ok: 1 });
    });
    expect((await send(get(), options(f.fetch), deps)).status).toBe(200);
    expect(f.calls).toHaveLength(2);
  });

  it('times each attempt out with APITimeoutError, retrying it', async () => {
    const { deps } = recordingDeps();
    const h = hangingFetch();
    const err = await send(get(), options(h.fetch, { timeout: 5, maxRetries: 1 }), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(APIConnectionError.is(err)).toBe(true);
    expect((err as Error).message).toContain('timed out after 5 ms');
    expect(h.count()).toBe(2);
  });

  it('times out a fetch that ignores its signal, and an answer whose body never ends', async () => {
    const { deps } = recordingDeps();
    const deaf = () => new Promise<Response>(() => {});
    await expect(send(get(), options(deaf, { timeout: 5, maxRetries: 0 }), deps)).rejects.toBeInstanceOf(APITimeoutError);
    const stalled = async () => new Response(new ReadableStream({ start() {} }), { status: 200 });
    await expect(send(get(), options(stalled, { timeout: 5, maxRetries: 0 }), deps)).rejects.toBeInstanceOf(APITimeoutError);
  });

  it('rejects with APIUserAbortError when the signal aborts, without retrying', async () => {
    const { deps } = recordingDeps();
    const h = hangingFetch();
    const controller = new AbortController();
    const pending = send(get(), options(h.fetch, { signal: controller.signal }), deps);
    controller.abort(new Error('user left'));
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect((err as Error).cause).toEqual(new Error('user left'));
    expect(h.count()).toBeLessThanOrEqual(1);
  });

  it('does not send at all with an already aborted signal', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch(() => json(200, {}));
    await expect(send(get(), options(f.fetch, { signal: AbortSignal.abort() }), deps)).rejects.toBeInstanceOf(APIUserAbortError);
    expect(f.calls).toHaveLength(0);
  });

  it('stops waiting between attempts when the signal aborts during the backoff', async () => {
    const controller = new AbortController();
    const deps: TransportDeps = {
      sleep: (_ms, signal) => {
        controller.abort();
        return signal?.aborted ? Promise.reject(signal.reason) : new Promise(() => {});
      },
      random: () => 0,
      now: () => NOW,
    };
    const f = fakeFetch(() => apiError(503, 'unavailable', 'down'));
    await expect(send(get(), options(f.fetch, { signal: controller.signal }), deps)).rejects.toBeInstanceOf(APIUserAbortError);
    expect(f.calls).toHaveLength(1);
  });

  it('stops a retry in flight when the signal aborts, and leaves no listener on the signal after a call', async () => {
    const { deps } = recordingDeps();
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    // The first attempt gets a 503; the retry hangs until the caller aborts.
    const fetch = (_url: string, init: RequestInit): Promise<Response> => {
      signals.push(init.signal as AbortSignal);
      if (signals.length === 1) return Promise.resolve(apiError(503, 'unavailable', 'later'));
      queueMicrotask(() => controller.abort(new Error('user left')));
      return new Promise(() => {});
    };
    const err = await send(get(), options(fetch, { signal: controller.signal }), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect((err as Error).cause).toEqual(new Error('user left'));
    expect(signals.map((s) => s.aborted)).toEqual([false, true]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const kept = new AbortController();
    const f = fakeFetch((_, n) => (n === 1 ? apiError(503, 'unavailable', 'later') : json(200, {})));
    expect((await send(get(), options(f.fetch, { signal: kept.signal }), deps)).status).toBe(200);
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
  });

  it('honours the signal carried by the request itself', async () => {
    const { deps } = recordingDeps();
    const h = hangingFetch();
    const controller = new AbortController();
    const pending = send(new Request('http://api.test/x', { signal: controller.signal }), options(h.fetch), deps);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });
});

describe('sendCall', () => {
  /** A call as openapi-fetch makes it: a new Request each time, handed to the fetch it is given. */
  const postCall = (seen: Response[]) => async (fetch: (request: Request) => Promise<Response>) => {
    const request = new Request('http://api.test/agency/createCampaign?uuid=u', {
      method: 'POST',
      body: '{"name":"once"}',
      headers: { 'content-type': 'application/json' },
    });
    const response = await fetch(request);
    seen.push(response);
    return { response };
  };

  it('makes the call again for each retry, with the same body and one Idempotency-Key, and gives the answer unread', async () => {
    const { deps, sleeps } = recordingDeps();
    const f = fakeFetch((_, n) => (n === 1 ? apiError(503, 'unavailable', 'later') : json(201, { id: 'cmp_1' })));
    const seen: Response[] = [];
    const { response } = await sendCall(postCall(seen), options(f.fetch), deps);
    expect(seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(f.calls.map((c) => c.body)).toEqual(['{"name":"once"}', '{"name":"once"}']);
    expect(new Set(f.calls.map((c) => c.headers.get('idempotency-key'))).size).toBe(1);
    expect(f.calls[0]?.headers.get('idempotency-key')).toMatch(/^engagekit-/);
    // The fetch's own answer, for openapi-fetch to read once.
    expect(response).toBe(seen[1]);
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ id: 'cmp_1' });
  });

  it('times out the whole call, the reading of the answer included, and says which request it was', async () => {
    const { deps } = recordingDeps();
    const stalled = async () => new Response(new ReadableStream({ start() {} }), { status: 200 });
    const call = async (fetch: (request: Request) => Promise<Response>) => {
      const response = await fetch(new Request('http://api.test/agency/reportingCampaign?uuid=u'));
      await response.text();
      return { response };
    };
    const err = await sendCall(call, options(stalled, { timeout: 5, maxRetries: 0 }), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toBe('GET http://api.test/agency/reportingCampaign?uuid=u timed out after 5 ms (the `timeout` option)');
  });

  it('rejects at once, without retrying, with an EngageError naming the cause when the request cannot be built', async () => {
    const { deps, sleeps } = recordingDeps();
    const f = fakeFetch(() => json(200, {}));
    let made = 0;
    const call = async () => {
      made += 1;
      // What openapi-fetch throws for a query it cannot serialize, before it calls the fetch.
      throw new Error('Deeply-nested arrays/objects aren’t supported.');
    };
    const err = await sendCall(call, options(f.fetch), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngageError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toBe('Could not build the request, so nothing was sent: Deeply-nested arrays/objects aren’t supported.');
    expect({ made, sent: f.calls.length, sleeps }).toEqual({ made: 1, sent: 0, sleeps: [] });
  });

  it('still retries a fetch that fails once the request is built', async () => {
    const { deps } = recordingDeps();
    const f = fakeFetch(() => {
      throw new TypeError('fetch failed');
    });
    const err = await sendCall(postCall([]), options(f.fetch), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(f.calls).toHaveLength(3);
  });
});

describe('attemptTimer', () => {
  it('fires without holding the process open', async () => {
    const fired = new Promise<string>((ok) => {
      const timer = attemptTimer(() => ok('fired'), 5);
      expect(timer.hasRef()).toBe(false);
    });
    expect(await fired).toBe('fired');
  });

  it('leaves a process whose only work is a call in flight running until the answer comes', async () => {
    // The server answers after 300 ms; the child does nothing but the call, so only its connection keeps it alive.
    const server = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"id":"cmp_1"}}'), 300);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    const script = `import { createClient } from ${JSON.stringify(fileURLToPath(new URL('../index.ts', import.meta.url)))};
const client = createClient({ baseUrl: 'http://127.0.0.1:${port}', token: 't', uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61', timeout: 10000 });
console.log(JSON.stringify(await client.campaigns.get('cmp_1')));`;
    try {
      // Run asynchronously: the server answering it lives in this process.
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
      expect({ stdout: stdout.trim(), stderr }).toEqual({ stdout: '{"id":"cmp_1"}', stderr: '' });
    } finally {
      server.close();
    }
  });
});
