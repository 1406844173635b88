import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { appRequest, GetRequest } from '../src/internal/app-request.ts';

const URL_GIVEN = 'http://mock.test/agency/x/../getCampaign/cmp_1?uuid=u-1';
const HEADERS = { Authorization: 'Bearer t', 'X-Request-Id': 'req_1' };

describe('appRequest', () => {
  it('gives a GET with a string URL, headers and a signal as a GetRequest, which reads as a Request of the runtime does', async () => {
    const signal = new AbortController().signal;
    const req = appRequest(URL_GIVEN, { method: 'GET', headers: HEADERS, signal });
    const runtime = new Request(URL_GIVEN, { method: 'GET', headers: HEADERS });
    expect(req).toBeInstanceOf(GetRequest);
    expect(req).toBeInstanceOf(Request);
    expect(req.url).toBe('http://mock.test/agency/getCampaign/cmp_1?uuid=u-1');
    const members = (r: Request) => [
      r.url,
      r.method,
      [...r.headers],
      r.body,
      r.bodyUsed,
      r.cache,
      r.credentials,
      r.destination,
      r.integrity,
      r.keepalive,
      r.mode,
      r.redirect,
      r.referrer,
      r.referrerPolicy,
      r.signal.aborted,
    ];
    expect(members(req)).toEqual(members(runtime));
    const nodeOnly = (r: Request) => {
      const n = r as unknown as Record<string, unknown>;
      return [n.duplex, n.isReloadNavigation, n.isHistoryNavigation];
    };
    expect(nodeOnly(req)).toEqual(nodeOnly(runtime));
    expect(inspect(req)).toContain('getCampaign');
    expect(await req.text()).toBe('');
    const copy = req.clone();
    expect([copy.url, copy.headers.get('authorization')]).toEqual([req.url, 'Bearer t']);
    expect(appRequest(URL_GIVEN, { headers: HEADERS })).toBeInstanceOf(GetRequest);
  });

  it('gives a Request of the runtime, without the signal, for any other call', async () => {
    const aborted = AbortSignal.abort();
    const others: [string | URL | Request, RequestInit][] = [
      [URL_GIVEN, { method: 'POST', body: '{}', signal: aborted }],
      [URL_GIVEN, { method: 'get', signal: aborted }],
      [URL_GIVEN, { cache: 'no-store', signal: aborted }],
      [new URL(URL_GIVEN), { signal: aborted }],
      [new Request(URL_GIVEN), { signal: aborted }],
    ];
    for (const [input, init] of others) {
      const req = appRequest(input, init);
      expect(req).not.toBeInstanceOf(GetRequest);
      expect(req.signal.aborted).toBe(false);
    }
  });

  it('refuses what a Request refuses, with its words', () => {
    for (const url of ['not a url', 'http://user:secret@mock.test/agency/getCampaign/cmp_1']) {
      let expected: unknown;
      try {
        new Request(url);
      } catch (err) {
        expected = err;
      }
      expect(() => appRequest(url, {})).toThrow((expected as Error).message);
    }
    expect(() => appRequest(URL_GIVEN, { headers: { 'bad name': 'x' } })).toThrow(TypeError);
  });
});
