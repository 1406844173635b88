/** `engagekit-mock` as a process: the ready line, tokens, flags, the `/__mock` control endpoints, `init`. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { workerScriptPath } from '../src/cli/init.ts';
import { DEFAULT_COMPANY, MOCK_WEBHOOK_SECRET } from '../src/index.ts';
import { campaignBody, type MockProcess, orderBody, PACKAGE_DIR, runCli, startMockProcess, startProcess, startReceiver } from './helpers.ts';

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});
async function started(args: string[] = [], env: Record<string, string> = {}) {
  const proc = await startMockProcess(args, env);
  stops.push(() => proc.stop());
  return proc;
}
/** A new directory in the temporary one, removed after the file's tests (after the processes started since, which stop first). */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as { success: boolean; data: T; message: string; code?: string };
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('engagekit-mock (memory engine)', () => {
  it('prints the admin token, the company and its token, then the ready line on 127.0.0.1; SIGTERM exits 0', async () => {
    const proc = await startMockProcess();
    const out = proc.output();
    expect(proc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toContain('Admin token: engagekit-mock-admin-token');
    expect(out).toContain(`Company: uuid ${DEFAULT_COMPANY.uuid}, company_id ${DEFAULT_COMPANY.company_id}`);
    const token = /Company token \(agency and orders\): (\S+)/.exec(out)?.[1] ?? '';
    const res = await fetch(`${proc.url}/agency/getCampaignData?uuid=${DEFAULT_COMPANY.uuid}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await fetch(`${proc.url}/api/v2/companies`, { headers: { authorization: 'Bearer engagekit-mock-admin-token' } })).status).toBe(200);
    expect(await proc.stop('SIGTERM')).toBe(0);
  });

  it('serves the contract at /openapi.json and the control document at /__mock/openapi.json, and no pages: /docs and /settings are 404s', async () => {
    const proc = await started();
    const document = await fetch(`${proc.url}/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { servers: { url: string }[] }).servers).toEqual([{ url: proc.url, description: expect.any(String) }]);
    expect((await fetch(`${proc.url}/__mock/openapi.json`)).status).toBe(200);
    for (const path of ['/docs', '/docs/scalar.js', '/docs/foo', '/settings', '/settings/nope.js']) {
      const missing = await fetch(`${proc.url}${path}`);
      expect(missing.status, path).toBe(404);
      expect(await json(missing), path).toMatchObject({ success: false, code: 'not_found' });
    }
    expect(proc.output()).not.toMatch(/error/i);
  });

  it('honours ADMIN_TOKEN', async () => {
    const proc = await started([], { ADMIN_TOKEN: 'my-own-admin-token-0123' });
    expect(proc.output()).toContain('Admin token: the one in ADMIN_TOKEN');
    expect((await fetch(`${proc.url}/api/v2/companies`, { headers: { authorization: 'Bearer my-own-admin-token-0123' } })).status).toBe(200);
    expect((await fetch(`${proc.url}/api/v2/companies`, { headers: { authorization: 'Bearer engagekit-mock-admin-token' } })).status).toBe(401);
  });

  it('keeps the compiled bundle in NODE_COMPILE_CACHE when started as the command, and starts again from it', async () => {
    const cache = tempDir('engagekit-mock-cache-');
    const bin = join(PACKAGE_DIR, 'bin/engagekit-mock.js');
    // The entries (one directory per Node version, a file per module compiled), with when each was written.
    const entries = () =>
      readdirSync(cache, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => `${e.name} ${statSync(join(e.parentPath, e.name)).mtimeMs}`);
    const written: string[][] = [];
    for (const round of [1, 2]) {
      const proc = await startProcess(process.execPath, [bin, '--port', '0'], { env: { NODE_COMPILE_CACHE: cache } });
      stops.push(() => proc.stop());
      expect((await fetch(`${proc.url}/api/v2/health`)).status, `start ${round}`).toBe(200);
      expect(await proc.stop()).toBe(0);
      written.push(entries());
    }
    expect(written[0]?.length).toBeGreaterThan(0);
    // The second start took the first one's entries as they were: Node rewrites an entry it cannot use.
    expect(written[1]).toEqual(written[0]);
  });

  it('starts with pnpm --filter @engagekit/mock-server start -- --port N', async () => {
    const proc = await startProcess('pnpm', ['--filter', '@engagekit/mock-server', 'start', '--', '--port', '0'], { detached: true });
    stops.push(() => proc.stop());
    expect((await fetch(`${proc.url}/api/v2/health`)).status).toBe(200);
  });

  it('makes the same ids for the same --seed, in two processes and after a reset', async () => {
    const ids = async (p: MockProcess) => {
      const info = (await json<{ company: { token: string; company_id: string } }>(await fetch(`${p.url}/__mock`))).data;
      const auth = { authorization: `Bearer ${info.company.token}` };
      const order = await json(await post(`${p.url}/api/order/addOrder`, orderBody(info.company.company_id, 'S-1'), auth));
      const camp = await json(await post(`${p.url}/agency/createCampaign?uuid=${DEFAULT_COMPANY.uuid}`, campaignBody('seeded'), auth));
      return [order.data.id, camp.data.id];
    };
    const [a, b] = await Promise.all([started(['--seed', '9']), started(['--seed', '9'])]);
    const first = await ids(a);
    expect(await ids(b)).toEqual(first);
    expect(first[0]).toMatch(/^ord_/);
    expect((await post(`${a.url}/__mock/reset`, {})).status).toBe(200);
    expect(await ids(a)).toEqual(first);
  });

  it('drives faults, state, sample data and reset through /__mock', async () => {
    const proc = await started();
    const u = proc.url;
    const info = (await json<{ company: { token: string; company_id: string }; adminToken: string; webhookSecret: string }>(await fetch(`${u}/__mock`))).data;
    expect(info).toMatchObject({ adminToken: 'engagekit-mock-admin-token', webhookSecret: MOCK_WEBHOOK_SECRET });
    const auth = { authorization: `Bearer ${info.company.token}` };

    const fault = await post(`${u}/__mock/fail`, { operationId: 'addOrder', status: 429, times: 2 });
    expect(fault.status).toBe(201);
    expect((await json<unknown[]>(await fetch(`${u}/__mock/faults`))).data.length).toBe(1);
    const limited = await post(`${u}/api/order/addOrder`, orderBody(info.company.company_id, 'C-1'), auth);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('0');
    expect(await json(limited)).toMatchObject({ success: false, code: 'rate_limited' });
    expect((await fetch(`${u}/__mock/faults`, { method: 'DELETE' })).status).toBe(200);
    expect((await post(`${u}/api/order/addOrder`, orderBody(info.company.company_id, 'C-1'), auth)).status).toBe(201);

    await post(`${u}/__mock/fail`, { operationId: 'getHealth', network: true });
    await expect(fetch(`${u}/api/v2/health`)).rejects.toThrow();
    expect((await fetch(`${u}/api/v2/health`)).status).toBe(200);

    const seeded = await post(`${u}/__mock/seed`, { campaigns: [campaignBody('from-seed')] });
    expect(seeded.status).toBe(201);
    const state = (await json<{ orders: { company_order_id: string }[]; campaigns: { name: string }[] }>(await fetch(`${u}/__mock/state`))).data;
    expect(state.orders.map((o) => o.company_order_id)).toEqual(['C-1']);
    expect(state.campaigns.map((c) => c.name)).toEqual(['from-seed']);

    await post(`${u}/__mock/reset`, {});
    const empty = (await json<{ orders: unknown[] }>(await fetch(`${u}/__mock/state`))).data;
    expect(empty.orders).toEqual([]);
  });

  it('drives the clock, channel outcomes, messages and the request journal through /__mock (--clock manual)', async () => {
    const { url } = await started(['--clock', 'manual', '--seed', '3']);
    const get = async <T>(path: string) => (await json<T>(await fetch(`${url}${path}`))).data;
    const info = await get<{ company: { token: string; company_id: string } }>('/__mock');
    const auth = { authorization: `Bearer ${info.company.token}` };
    expect(await get('/__mock/clock')).toMatchObject({ manual: true });
    expect((await json(await post(`${url}/__mock/clock`, { set: '2026-03-01T08:00:00Z' }))).data).toEqual({ now: '2026-03-01T08:00:00.000Z', manual: true });
    for (const [id, phoneNumber] of [
      ['H-1', '+919800000011'],
      ['H-2', '+919800000012'],
    ]) {
      expect(
        (await post(`${url}/api/order/addOrder`, { ...orderBody(info.company.company_id, id as string), phoneNumber }, { ...auth, 'X-Trace': ` ${id} ` }))
          .status,
      ).toBe(201);
    }
    const campaign = await json<{ id: string }>(
      await post(`${url}/agency/createCampaign?uuid=${DEFAULT_COMPANY.uuid}`, { ...campaignBody('over-http'), schedule: '2026-03-01T09:00:00Z' }, auth),
    );
    const outcome = await post(`${url}/__mock/channel/outcomes`, { phoneNumber: '*', status: 'failed', reason: 'no WhatsApp' });
    expect(outcome.status).toBe(201);
    expect(await get('/__mock/channel')).toEqual({ outcomes: { '*': { status: 'failed', reason: 'no WhatsApp' } } });
    expect((await post(`${url}/__mock/channel/outcomes`, { phoneNumber: '*', status: 'lost' })).status).toBe(400);
    expect((await json(await post(`${url}/__mock/clock`, { advance: '1h' }))).data).toEqual({ now: '2026-03-01T09:00:00.000Z', manual: true });
    const messages = await get<{ to: string; status: string; error: string; campaignId: string }[]>(`/__mock/messages?campaignId=${campaign.data.id}`);
    expect(messages.map((m) => [m.to, m.status, m.error]).sort()).toEqual([
      ['+919800000011', 'failed', 'no WhatsApp'],
      ['+919800000012', 'failed', 'no WhatsApp'],
    ]);
    expect(await get(`/__mock/messages?campaignId=cmp_other`)).toEqual([]);
    expect((await json(await fetch(`${url}/__mock/channel/outcomes`, { method: 'DELETE' }))).data).toEqual({ outcomes: {} });
    const adds =
      await get<{ operationId: string; status: number; headers: Record<string, string>; body: { company_order_id: string } }[]>(
        '/__mock/requests?operationId=addOrder',
      );
    // The names in lower case and the values trimmed, as a Headers of the request gives them.
    expect(adds.map((r) => [r.status, r.body.company_order_id, r.headers.authorization, r.headers['x-trace'], r.headers['content-type']])).toEqual([
      [201, 'H-1', 'Bearer [redacted]', 'H-1', 'application/json'],
      [201, 'H-2', 'Bearer [redacted]', 'H-2', 'application/json'],
    ]);
    expect(Object.keys(adds[0]?.headers ?? {})).toEqual(Object.keys(adds[0]?.headers ?? {}).map((name) => name.toLowerCase()));
    expect(await get('/__mock/requests?since=2026-03-01T08:30:00Z')).toEqual([]);
    expect((await fetch(`${url}/__mock/requests`, { method: 'DELETE' })).status).toBe(200);
    expect(await get('/__mock/requests')).toEqual([]);
    expect((await post(`${url}/__mock/clock`, { advance: 'later' })).status).toBe(400);
    expect((await post(`${url}/__mock/clock`, {})).status).toBe(400);

    const snap = await post(`${url}/__mock/snapshot`, {});
    expect(snap.status).toBe(201);
    const { id } = (await json<{ id: string }>(snap)).data;
    expect((await post(`${url}/api/order/addOrder`, orderBody(info.company.company_id, 'H-3'), auth)).status).toBe(201);
    await post(`${url}/__mock/clock`, { advance: '1d' });
    expect((await json(await post(`${url}/__mock/restore`, { id }))).data).toEqual({ id });
    expect(await get('/__mock/clock')).toEqual({ now: '2026-03-01T09:00:00.000Z', manual: true });
    expect((await get<{ orders: { company_order_id: string }[] }>('/__mock/state')).orders.map((o) => o.company_order_id).sort()).toEqual(['H-1', 'H-2']);
    const document = (await (await fetch(`${url}/__mock/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/__mock/clock');
    const unknown = await post(`${url}/__mock/restore`, { id: 'snap_9' });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).message).toContain(`id must name a snapshot taken with POST /__mock/snapshot (${id})`);
  });

  it('answers a clock move 400 when the clock is real', async () => {
    const { url } = await started();
    const res = await post(`${url}/__mock/clock`, { advance: '1h' });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/needs a manual clock/);
  });

  it('answers bad control input 400 and an unknown control path 404, naming what exists', async () => {
    const proc = await started();
    const bad = await post(`${proc.url}/__mock/fail`, { operationId: 'addOrdr', status: 500 });
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toMatch(/"addOrdr" is not an operationId .* addOrder/);
    expect((await post(`${proc.url}/__mock/fail`, { status: 500 })).status).toBe(400);
    expect((await fetch(`${proc.url}/__mock/state?uuid=00000000-0000-4000-8000-000000000000`)).status).toBe(400);
    const unknown = await fetch(`${proc.url}/__mock/nothing`);
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).message).toContain('POST /__mock/reset');
  });

  it('delivers signed webhooks to --webhook-url and lists them at /__mock/webhooks', async () => {
    const receiver = await startReceiver();
    stops.push(receiver.close);
    const proc = await started(['--webhook-url', receiver.url]);
    const info = (await json<{ company: { token: string; company_id: string } }>(await fetch(`${proc.url}/__mock`))).data;
    await post(`${proc.url}/api/order/addOrder`, orderBody(info.company.company_id, 'WH-1'), { authorization: `Bearer ${info.company.token}` });
    await receiver.waitFor(1);
    const got = receiver.received[0];
    expect(() => new Webhook(MOCK_WEBHOOK_SECRET).verify(got?.body ?? '', got?.headers as Record<string, string>)).not.toThrow();
    // The log entry follows the receiver's answer by a moment (of the mock's process: load can stretch it).
    const sent = await vi.waitFor(
      async () => {
        const logged = (await json<{ url: string; status: number; rawBody: string; event: { type: string } }[]>(await fetch(`${proc.url}/__mock/webhooks`)))
          .data;
        expect(logged).not.toHaveLength(0);
        return logged;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(sent).toEqual([
      expect.objectContaining({ url: receiver.url, status: 200, rawBody: got?.body, event: expect.objectContaining({ type: 'order.created' }) }),
    ]);
    expect((await fetch(`${proc.url}/__mock/webhooks`, { method: 'DELETE' })).status).toBe(200);
    expect((await json(await fetch(`${proc.url}/__mock/webhooks`))).data).toEqual([]);
  });

  it('loads --data at start and again on reset', async () => {
    const file = join(tempDir('engagekit-mock-'), 'data.json');
    writeFileSync(file, JSON.stringify({ customers: [{ phoneNumber: '+14155550100', firstName: 'Imported' }] }));
    const proc = await started(['--data', file]);
    const customers = async () => (await json<{ customers: { phoneNumber: string }[] }>(await fetch(`${proc.url}/__mock/state`))).data.customers;
    expect((await customers()).map((c) => c.phoneNumber)).toEqual(['+14155550100']);
    const journal = async () => (await json<unknown[]>(await fetch(`${proc.url}/__mock/requests`))).data;
    // The journal holds what the code under test sent, never the loading of the data.
    expect(await journal()).toEqual([]);
    await post(`${proc.url}/__mock/reset`, {});
    expect(await customers()).toHaveLength(1);
    expect(await journal()).toEqual([]);
  });

  it('refuses a --data file that cannot load with exit code 2, naming the file, the place in it and the problem', async () => {
    const dir = tempDir('engagekit-mock-');
    const write = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const shape = write('shape.json', JSON.stringify({ orders: [{ ...orderBody('X', 'O-1'), phoneNumber: 'call me' }], order: [] }));
    const bad = await runCli(['--data', shape]);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain(`--data ${shape} is not valid sample data:`);
    expect(bad.output).toMatch(/orders\[0\]\.phoneNumber: .*E\.164/);
    expect(bad.output).toMatch(/\(the top level\): Unrecognized key: "order"/);
    const notJson = write('broken.json', '{ "orders": [ ');
    expect(await runCli(['--data', notJson])).toMatchObject({ code: 2, output: expect.stringContaining(`--data ${notJson} is not JSON:`) });
    const missing = join(dir, 'missing.json');
    expect(await runCli(['--data', missing])).toMatchObject({ code: 2, output: expect.stringContaining(`--data ${missing}: cannot read it (ENOENT)`) });
    const refused = write('refused.json', JSON.stringify({ campaigns: [campaignBody('twice'), campaignBody('twice')] }));
    expect(await runCli(['--data', refused])).toMatchObject({
      code: 2,
      output: expect.stringContaining(`--data ${refused}: Sample data refused: campaigns[1] answered 409`),
    });
  });

  it('refuses bad flags and a short ADMIN_TOKEN with exit code 2 and a message', async () => {
    const port = await runCli(['--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.output).toContain('--port must be a whole number from 0 to 65535, not "eighty"');
    const engine = await runCli(['--engine', 'wiremock']);
    expect(engine).toMatchObject({ code: 2, output: expect.stringContaining('--engine must be memory or prism') });
    expect(await runCli([], { ADMIN_TOKEN: 'short' })).toMatchObject({
      code: 2,
      output: expect.stringContaining('ADMIN_TOKEN must be at least 16 characters'),
    });
    expect(await runCli(['--help'])).toMatchObject({ code: 0, output: expect.stringContaining('engagekit-mock init <publicDir>') });
  });
});

describe('engagekit-mock init', () => {
  it('copies MSW’s worker script into the public directory, creating it', async () => {
    const dir = join(tempDir('engagekit-init-'), 'web', 'public');
    const run = await runCli(['init', dir]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, 'mockServiceWorker.js'), 'utf8')).toBe(readFileSync(workerScriptPath(), 'utf8'));
    expect(await runCli(['init'])).toMatchObject({ code: 2, output: expect.stringContaining('init needs the directory') });
  });
});

describe('engagekit-mock sessions', () => {
  it('ends idle sessions, refuses one past --max-sessions with 429 too_many_sessions, and leaves the default session alone', async () => {
    const { url } = await started(['--max-sessions', '2', '--session-idle', '1s']);
    await post(`${url}/__mock/fail`, { operationId: 'getHealth', status: 503, times: null });
    for (const name of ['a', 'b']) expect((await fetch(`${url}/__session/${name}/api/v2/health`)).status).toBe(200);
    // Through the other spelling of loopback: a session's requests do not depend on the Host they name.
    expect((await fetch(`${url.replace('127.0.0.1', 'localhost')}/__session/a/__mock`)).status).toBe(200);
    const listed = (await json<{ sessions: { name: string; baseUrl: string }[]; maxSessions: number }>(await fetch(`${url}/__sessions`))).data;
    expect(listed).toMatchObject({ maxSessions: 2, sessions: [{ name: 'a', baseUrl: `${url}/__session/a` }, { name: 'b' }] });
    const refused = await fetch(`${url}/__session/c/api/v2/health`);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ code: 'too_many_sessions', message: expect.stringMatching(/^Too many sessions: 2 are live \(--max-sessions/) });
    expect((await fetch(`${url}/api/v2/health`)).status).toBe(503);
    await vi.waitFor(async () => expect((await json<{ sessions: unknown[] }>(await fetch(`${url}/__sessions`))).data.sessions).toEqual([]), {
      timeout: 10_000,
      interval: 100,
    });
    expect((await fetch(`${url}/__session/c/api/v2/health`)).status).toBe(200);
    expect((await fetch(`${url}/__session/no%20spaces/api/v2/health`)).status).toBe(400);
    expect((await fetch(`${url}/__session/bad%E0%A4/api/v2/health`)).status).toBe(400);
  });

  it('journals a request its client gave up on while a fault held it, as aborted', async () => {
    const { url } = await started();
    const base = `${url}/__session/abort`;
    const info = (await json<{ company: { uuid: string; token: string } }>(await fetch(`${base}/__mock`))).data;
    await post(`${base}/__mock/fail`, { operationId: 'getCampaignData', delayMs: 30_000 });
    const given = fetch(`${base}/agency/getCampaignData?uuid=${info.company.uuid}`, {
      headers: { authorization: `Bearer ${info.company.token}` },
      signal: AbortSignal.timeout(300),
    });
    await expect(given).rejects.toMatchObject({ name: 'TimeoutError' });
    const journal = await vi.waitFor(
      async () => {
        const logged = (await json<{ status: number | null; ended: string; companyUuid: string }[]>(await fetch(`${base}/__mock/requests`))).data;
        expect(logged).toHaveLength(1);
        return logged;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(journal[0]).toMatchObject({ status: null, ended: 'aborted', companyUuid: info.company.uuid });
  });
});
