/**
 * What each of the five files does in a session of its own, at the same time as the others: faults,
 * its clock, channel outcomes, the request journal and the webhook log, a snapshot and its restore,
 * and a reset. Nothing one file does may show in another's session.
 */
import { createClient } from '@engagekit/sdk';
import { expect, inject, it, vi } from 'vitest';
import { orderBody } from '../helpers.ts';

interface Envelope<T> {
  success: boolean;
  data: T;
  message: string;
}

/** The control API of one session, over HTTP. */
function sessionOf(name: string) {
  const base = `${inject('mockUrl')}/__session/${name}`;
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/__mock${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const json = (await res.json()) as Envelope<T>;
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${json.message}`);
    return json.data;
  };
  return { base, control };
}

/** The names of the live sessions that start with `prefix`. */
async function sessionsNamed(prefix: string): Promise<string[]> {
  const { sessions } = ((await (await fetch(`${inject('mockUrl')}/__sessions`)).json()) as Envelope<{ sessions: { name: string }[] }>).data;
  return sessions.map((s) => s.name).filter((name) => name.startsWith(prefix));
}

/**
 * Marks that file `n` has reached `step` (with a session of its own, `at-{step}-{n}`, made by its first
 * request and listed at `/__sessions`), then waits until every file that has started has reached it
 * too, so that the steps after it overlap. A file the runner has not started yet is not waited for:
 * how many files run at once is the runner's choice (its workers), and a file alone goes straight on.
 */
async function allAt(step: string, n: number) {
  await fetch(`${inject('mockUrl')}/__session/at-${step}-${n}/__mock`);
  await vi
    .waitFor(
      async () => {
        const started = (await sessionsNamed('at-start-')).map((name) => name.slice('at-start-'.length));
        const reached = new Set((await sessionsNamed(`at-${step}-`)).map((name) => name.slice(`at-${step}-`.length)));
        expect(started.filter((file) => !reached.has(file))).toEqual([]);
      },
      { timeout: 20_000, interval: 50 },
    )
    // A file that failed before the step never reaches it: go on, its own test says what went wrong.
    .catch(() => {});
}

/** The test of file `n` (1 to 5). */
export function isolatedSession(n: number) {
  it(`keeps file ${n}'s faults, clock, outcomes, journal, webhooks, snapshots and reset to its own session`, async () => {
    const name = `file-${n}`;
    await fetch(`${inject('mockUrl')}/__session/at-start-${n}/__mock`);
    const { base, control } = sessionOf(name);
    const info = await control<{ company: { uuid: string; company_id: string; token: string }; adminToken: string; baseUrl: string }>('GET', '');
    expect(info.baseUrl).toBe(base);
    const { company } = info;
    const client = createClient({ baseUrl: base, token: company.token, uuid: company.uuid, maxRetries: 0 });
    const start = Date.parse((await control<{ now: string }>('GET', '/clock')).now);

    // Webhooks to a URL of this file's: recorded only (--webhook-delivery record), never sent.
    const hook = `https://file-${n}.example/hooks`;
    const made = await fetch(`${base}/api/v2/companies/${company.uuid}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hook }),
    });
    expect(made.status).toBe(201);
    await control('POST', '/fail', { operationId: 'addOrder', status: 503, times: 1 });
    // Odd files make every campaign list fail; even files must never see it.
    if (n % 2 === 1) await control('POST', '/fail', { operationId: 'getCampaignData', status: 500, times: null });
    await control('POST', '/channel/outcomes', { phoneNumber: '*', status: n % 2 === 1 ? 'failed' : 'read' });
    await allAt('a', n);

    await expect(client.orders.add(orderBody(company.company_id, `F${n}-1`))).rejects.toMatchObject({ status: 503 });
    await client.orders.add(orderBody(company.company_id, `F${n}-1`));
    await client.orders.add(orderBody(company.company_id, `F${n}-2`));
    if (n % 2 === 1) await expect(client.campaigns.list()).rejects.toMatchObject({ status: 500 });
    else expect((await client.campaigns.list()).data).toEqual([]);
    await control('POST', '/clock', { advance: `${n}h` });
    expect(Date.parse((await control<{ now: string }>('GET', '/clock')).now)).toBe(start + n * 3_600_000);
    expect(await control('GET', '/channel')).toEqual({ outcomes: { '*': { status: n % 2 === 1 ? 'failed' : 'read' } } });

    const adds = await control<{ status: number; body: { company_order_id: string } }[]>('GET', `/requests?operationId=addOrder&uuid=${company.uuid}`);
    expect(adds.map((r) => [r.status, r.body.company_order_id])).toEqual([
      [503, `F${n}-1`],
      [201, `F${n}-1`],
      [201, `F${n}-2`],
    ]);
    const webhooks = await vi.waitFor(
      async () => {
        const logged = await control<{ url: string; event: { data: { order: { company_order_id: string } } } }[]>('GET', '/webhooks');
        expect(logged).toHaveLength(2);
        return logged;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(webhooks.map((w) => [w.url, w.event.data.order.company_order_id])).toEqual([
      [hook, `F${n}-1`],
      [hook, `F${n}-2`],
    ]);
    await allAt('b', n);

    const { id } = await control<{ id: string }>('POST', '/snapshot');
    await client.orders.add(orderBody(company.company_id, `F${n}-3`));
    await control('POST', '/restore', { id });
    const orders = (await control<{ orders: { company_order_id: string }[] }>('GET', '/state')).orders;
    expect(orders.map((o) => o.company_order_id)).toEqual([`F${n}-1`, `F${n}-2`]);

    await control('POST', '/reset');
    expect((await control<{ orders: unknown[] }>('GET', '/state')).orders).toEqual([]);
    expect(await control('GET', '/faults')).toEqual([]);
    expect(await control('GET', '/webhooks')).toEqual([]);
    expect(Date.parse((await control<{ now: string }>('GET', '/clock')).now)).toBe(start);
    expect(await client.campaigns.list()).toMatchObject({ data: [] });
    expect((await control<{ operationId: string }[]>('GET', '/requests')).map((r) => r.operationId)).toEqual(['getCampaignData']);

    const ended = await fetch(`${inject('mockUrl')}/__session/${name}`, { method: 'DELETE' });
    expect(ended.status).toBe(200);
  });
}
