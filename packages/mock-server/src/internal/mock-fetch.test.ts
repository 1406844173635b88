import { describe, expect, it } from 'vitest';
import { createMockFetch, requestWithoutSignal } from './mock-fetch.ts';

describe('requestWithoutSignal', () => {
  it('makes the Request fetch would make, but for the signal, which it does not follow', async () => {
    const caller = new AbortController();
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-a': '1' }, body: '{"a":1}', signal: caller.signal };
    const made = requestWithoutSignal('https://api.example.test/agency/sync?uuid=u', init);
    const expected = new Request('https://api.example.test/agency/sync?uuid=u', init);
    expect(Object.getPrototypeOf(made)).toBe(Request.prototype);
    expect([made.method, made.url, [...made.headers], await made.text()]).toEqual([
      expected.method,
      expected.url,
      [...expected.headers],
      await expected.text(),
    ]);
    caller.abort();
    expect(expected.signal.aborted).toBe(true);
    expect(made.signal.aborted).toBe(false);
  });

  it('leaves out the signal of a Request it is given too', () => {
    const caller = new AbortController();
    const made = requestWithoutSignal(new Request('https://api.example.test/', { signal: caller.signal }), undefined);
    caller.abort();
    expect(made.signal.aborted).toBe(false);
  });
});

describe('createMockFetch', () => {
  const handled: { request: Request; signal: AbortSignal | undefined }[] = [];
  const ok = () => Promise.resolve(new Response('ok'));
  let answer = ok;
  const fetch = createMockFetch('https://api.example.test/v1', (request, signal) => {
    handled.push({ request, signal });
    return answer();
  });

  it('takes a path under the base URL, and gives the mock the caller signal to follow', async () => {
    handled.length = 0;
    const caller = new AbortController();
    expect(await (await fetch('/agency/sync', { signal: caller.signal })).text()).toBe('ok');
    expect(await (await fetch('agency/sync')).text()).toBe('ok');
    expect(handled.map((h) => h.request.url)).toEqual(['https://api.example.test/v1/agency/sync', 'https://api.example.test/v1/agency/sync']);
    expect(handled.map((h) => h.signal)).toEqual([caller.signal, undefined]);
  });

  it('sends nothing once aborted, and rejects with the reason at once when aborted while the mock works', async () => {
    handled.length = 0;
    await expect(fetch('/a', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(handled).toEqual([]);
    answer = () => new Promise(() => {});
    const caller = new AbortController();
    const pending = fetch('/b', { signal: caller.signal });
    const reason = new Error('gave up');
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    answer = ok;
  });
});
