/**
 * The server's operations surface, from a real process: /metrics parsed as Prometheus' text format,
 * its counters moving as a campaign runs and a webhook is delivered (PGlite and PostgreSQL), the scrape
 * port and the admin token, and readiness during a drain.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { freePort, freshDatabase, jsonCaller, type ServerProcess, sampleOrder, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'metrics-e2e-admin-token-0123';
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/** One family of a scrape, as the parser gives it. */
interface Family {
  name: string;
  type: string;
  metrics: { value?: string; count?: string; labels?: Record<string, string> }[];
}

/** A scrape: its families as the parser gives them (it fails on a text not in the format), and its text. */
interface Scrape {
  families: Map<string, Family>;
  text: string;
}

/** The scrape at `url`, parsed; fails on a text the parser refuses. */
async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parsePrometheusTextFormat(text) as Family[];
  return { families: new Map(families.map((f) => [f.name, f])), text };
}

/**
 * The sum of a family's samples whose labels include `labels`; a histogram's, of its `_count` series.
 * The parser folds a histogram's series into one, so those are read from the text's `_count` lines.
 */
function total({ families, text }: Scrape, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  if (!family) throw new Error(`no metric ${name} in the scrape`);
  const wanted = (got: Record<string, string>) => Object.entries(labels).every(([k, v]) => got[k] === v);
  if (family.type === 'HISTOGRAM') {
    let sum = 0;
    for (const m of text.matchAll(new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`, 'gm'))) {
      const got = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
      if (wanted(got)) sum += Number(m[2]);
    }
    return sum;
  }
  return family.metrics.filter((m) => wanted(m.labels ?? {})).reduce((sum, m) => sum + Number(m.value ?? 0), 0);
}

for (const database of ['pglite', 'postgres'] as const) {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  describe.skipIf(skip)(`/metrics on ${database}${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`, () => {
    it('counts a campaign run and a webhook delivered, on the scrape port', async () => {
      const metricsPort = await freePort();
      const env: Record<string, string> = { ADMIN_TOKEN, SCHEDULER_INTERVAL_MS: '100', SIMULATED_FAILURE_RATE: '0', DEMO_COMPANY: '0', LEASE_MS: '1000' };
      env.METRICS_PORT = String(metricsPort);
      env.WEBHOOK_ALLOW_PRIVATE = '1';
      if (database === 'postgres') {
        const db = await freshDatabase('metrics');
        if (!db) throw new Error('DATABASE_URL is needed');
        env.DATABASE_URL = db.url;
        stops.push(() => db.drop());
      }
      const receiver = await startReceiver();
      stops.push(() => receiver.close());
      const server: ServerProcess = await startServerProcess(env);
      stops.push(() => server.stop());
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      const before = await scrape(metricsUrl);
      expect(total(before, 'engagekit_campaign_runs_total', { event: 'started' })).toBe(0);
      expect(before.families.get('process_cpu_seconds_total')?.type).toBe('COUNTER');

      const call = jsonCaller(server.url);
      const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Metered', company_id: 'METER' });
      const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
      await call('POST', `/api/v2/companies/${company.uuid}/webhooks`, ADMIN_TOKEN, { url: receiver.url });
      for (const i of [1, 2]) {
        await call('POST', '/api/order/addOrder', tok.token, sampleOrder('METER', `M-${i}`, { phoneNumber: `+91980000000${i}` }));
      }
      const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
        name: 'metered',
        schedule_type: 'once',
        schedule: new Date(Date.now() + 500).toISOString(),
        template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
      });
      await vi.waitFor(
        async () => expect((await call('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, tok.token)).data.status).toBe('completed'),
        { timeout: 50_000, interval: 200 },
      );
      await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 100 });

      // The attempt is counted once recorded: the scrape after the receiver saw it may come first.
      await vi.waitFor(async () => expect(total(await scrape(metricsUrl), 'engagekit_webhook_attempts_total', { outcome: 'succeeded' })).toBe(2), {
        timeout: 10_000,
        interval: 100,
      });
      const after = await scrape(metricsUrl);
      expect(total(after, 'engagekit_campaign_runs_total', { event: 'started' })).toBe(1);
      expect(total(after, 'engagekit_campaign_runs_total', { event: 'completed' })).toBe(1);
      expect(total(after, 'engagekit_campaign_messages_total', { error_code: '' })).toBe(2);
      expect(total(after, 'engagekit_channel_sends_total', { channel: 'simulated', outcome: 'sent' })).toBe(2);
      expect(total(after, 'engagekit_http_request_duration_seconds', { operation: 'addOrder', status_class: '2xx' })).toBe(2);
      expect(total(after, 'engagekit_webhook_attempt_duration_seconds')).toBe(2);
      expect(total(after, 'engagekit_webhook_deliveries_due')).toBe(0);
      expect(total(after, 'engagekit_lease_renewals_total', { outcome: 'ok' })).toBeGreaterThan(0);
      if (database === 'postgres') expect(total(after, 'engagekit_db_pool_size')).toBe(10);
      // No label names a company, an order or a phone number.
      for (const family of after.families.values())
        for (const m of family.metrics) expect(JSON.stringify(m.labels ?? {})).not.toMatch(/METER|M-1|\+91|[0-9a-f]{8}-/);
      // The scrape port serves nothing else, and the API's port has no /metrics.
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v2/health`)).status).toBe(404);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    }, 120_000);
  });
}

describe('/metrics on PORT and readiness', () => {
  it('serves /metrics to the admin token only, and answers not ready while it drains', async () => {
    const server = await startServerProcess({ ADMIN_TOKEN, DEMO_COMPANY: '0', DRAIN_DELAY_MS: '5000' });
    stops.push(() => server.stop());
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer not-the-admin-token' } })).status).toBe(401);
    expect(total(await scrape(`${server.url}/metrics`, ADMIN_TOKEN), 'engagekit_http_request_duration_seconds', { status_class: '4xx' })).toBe(0);

    expect((await fetch(`${server.url}/api/v2/health/live`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/api/v2/health/ready`)).json()).toMatchObject({ data: { status: 'ready' } });
    const exited = server.stop();
    await vi.waitFor(async () => expect((await fetch(`${server.url}/api/v2/health/ready`)).status).toBe(503), { timeout: 4000, interval: 50 });
    const draining = await (await fetch(`${server.url}/api/v2/health/ready`)).json();
    expect(draining).toMatchObject({ success: false, code: 'draining' });
    // Still serving meanwhile: liveness and the API answer until the listener closes.
    expect((await fetch(`${server.url}/api/v2/health/live`)).status).toBe(200);
    expect(await exited).toBe(0);
  }, 60_000);
});
