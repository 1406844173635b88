/**
 * The server's operations surface, from a real process: /metrics parsed as Prometheus' text format,
 * its counters moving as a campaign runs through WhatsApp (the emulator), its statuses come back and a
 * webhook is delivered (PGlite and PostgreSQL), the PostgreSQL pool's waits, the scrape port and the
 * admin token, and readiness during a drain. Take-overs of webhook deliveries are counted where a
 * server is killed holding them (webhooks-e2e.test.ts).
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { createWhatsAppEmulator, signBody } from '../../whatsapp-emulator/src/index.ts';
import { freshDatabase, jsonCaller, type ServerProcess, sampleOrder, startServerProcess, whatsappEnvFor } from './helpers.ts';

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
    it('counts a campaign run, its statuses and a webhook delivered, on the scrape port', async () => {
      const wa = await createWhatsAppEmulator({ acceptAnyTemplate: true, sentMs: 5, deliveredMs: 10, readMs: 20 });
      stops.push(() => wa.close());
      const env: Record<string, string> = { ADMIN_TOKEN, SCHEDULER_INTERVAL_MS: '100', DEMO_COMPANY: '0', LEASE_MS: '1000', ...whatsappEnvFor(wa) };
      // Port 0: the server takes a free one and names it, so no other test can take it in between.
      env.METRICS_PORT = '0';
      env.WEBHOOK_ALLOW_PRIVATE = '1';
      if (database === 'postgres') {
        const db = await freshDatabase('metrics');
        if (!db) throw new Error('DATABASE_URL is needed');
        env.DATABASE_URL = db.url;
        // Two connections, so that a burst of requests waits for one.
        env.DATABASE_POOL_SIZE = '2';
        stops.push(() => db.drop());
      }
      const receiver = await startReceiver();
      stops.push(() => receiver.close());
      const server: ServerProcess = await startServerProcess(env);
      stops.push(() => server.stop());
      const callbackUrl = `${server.url}/channels/whatsapp/webhook`;
      await wa.setCallbackUrl(callbackUrl);
      const metricsUrl = /metrics on (http:\/\/\S+\/metrics)/.exec(server.output())?.[1];
      if (!metricsUrl) throw new Error(`the server named no metrics port:\n${server.output()}`);
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
      await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'welcome', phone_number: '15550000000', wam_id: 'tpl-metered' });
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
      // Each message is read: its sent, delivered and read statuses come back by webhook, each once.
      await wa.quiet({ timeoutMs: 20_000 });

      // The attempt is counted once recorded: the scrape after the receiver saw it may come first.
      await vi.waitFor(async () => expect(total(await scrape(metricsUrl), 'engagekit_webhook_attempts_total', { outcome: 'succeeded' })).toBe(2), {
        timeout: 10_000,
        interval: 100,
      });
      const after = await scrape(metricsUrl);
      expect(total(after, 'engagekit_campaign_runs_total', { event: 'started' })).toBe(1);
      expect(total(after, 'engagekit_campaign_runs_total', { event: 'completed' })).toBe(1);
      expect(total(after, 'engagekit_campaign_messages_total', { error_code: '' })).toBe(2);
      expect(total(after, 'engagekit_channel_sends_total', { channel: 'whatsapp', outcome: 'sent' })).toBe(2);
      expect(total(after, 'engagekit_channel_send_limit_per_second', { channel: 'whatsapp' })).toBe(80);
      for (const status of ['sent', 'delivered', 'read']) expect(total(after, 'engagekit_channel_statuses_total', { status })).toBe(2);
      expect(total(after, 'engagekit_channel_status_lag_seconds')).toBe(6);
      expect(total(after, 'engagekit_channel_status_duplicates_total')).toBe(0);
      expect(total(after, 'engagekit_lease_takeovers_total', { work: 'webhook_delivery' })).toBe(0);
      expect(total(after, 'engagekit_http_request_duration_seconds', { operation: 'addOrder', status_class: '2xx' })).toBe(2);
      expect(total(after, 'engagekit_webhook_attempt_duration_seconds')).toBe(2);
      expect(total(after, 'engagekit_webhook_deliveries_due')).toBe(0);
      expect(total(after, 'engagekit_lease_renewals_total', { outcome: 'ok' })).toBeGreaterThan(0);
      if (database === 'postgres') expect(total(after, 'engagekit_db_pool_size')).toBe(2);
      else expect(after.families.has('engagekit_db_pool_waits_total')).toBe(false);

      // WhatsApp sends a read status again, in a webhook of its own: a duplicate of the one stored before.
      const read = wa.webhooks().find((w) => w.status === 'read');
      if (!read) throw new Error('the emulator made no read webhook');
      const again = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(read.body, wa.appSecret) },
        body: read.body,
      });
      expect(again.status).toBe(200);
      const replayed = await scrape(metricsUrl);
      expect(total(replayed, 'engagekit_channel_statuses_total', { status: 'read' })).toBe(3);
      expect(total(replayed, 'engagekit_channel_status_duplicates_total')).toBe(1);

      if (database === 'postgres') {
        // A burst of reads over the pool's two connections: some wait for one.
        await vi.waitFor(
          async () => {
            await Promise.all(Array.from({ length: 16 }, () => call('GET', `/agency/getCustomers?uuid=${company.uuid}`, tok.token)));
            const burst = await scrape(metricsUrl);
            expect(total(burst, 'engagekit_db_pool_waits_total')).toBeGreaterThan(0);
            expect(total(burst, 'engagekit_db_pool_wait_seconds')).toBeGreaterThan(0);
          },
          { timeout: 10_000, interval: 0 },
        );
      }
      // No label names a company, an order or a phone number.
      for (const family of after.families.values())
        for (const m of family.metrics) expect(JSON.stringify(m.labels ?? {})).not.toMatch(/METER|M-1|\+91|[0-9a-f]{8}-/);
      // The scrape port serves nothing else, and the API's port has no /metrics.
      expect((await fetch(new URL('/api/v2/health', metricsUrl))).status).toBe(404);
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
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${ADMIN_TOKEN}` } })).status).toBe(401);
    // Read as the API reads a bearer token (the runtime's `bearerToken`): the scheme in any case.
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
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
