/**
 * Traces from a real server process with OTEL_EXPORTER_OTLP_ENDPOINT set, received by an OTLP/HTTP
 * receiver in the test: one addOrder, parent to child from the caller's traceparent down to its SQL,
 * and its webhook delivery in a trace of its own, linked to the order's; then a campaign's send to the
 * WhatsApp emulator, in a channel-send span whose trace the `traceparent` the emulator got names.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { createWhatsAppEmulator } from '../../whatsapp-emulator/src/index.ts';
import { freshDatabase, jsonCaller, sampleOrder, startServerProcess, whatsappEnvFor } from './helpers.ts';

const ADMIN_TOKEN = 'tracing-e2e-admin-token-0123';
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/** A span as OTLP/JSON gives it, with the attributes as a plain object. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  links?: { traceId: string; spanId: string }[];
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP receiver (JSON) on a free port: every span it is sent. */
async function startOtlpReceiver(): Promise<{ url: string; spans: Span[]; close(): Promise<void> }> {
  const spans: Span[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) {
              const attributes = Object.fromEntries(
                (s.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]),
              );
              spans.push({ ...s, attributes });
            }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((ok) => server.close(() => ok())) };
}

const skip = !process.env.DATABASE_URL;
describe.skipIf(skip)(`traces${skip ? ' (skipped: DATABASE_URL is not set; the SQL spans are PostgreSQL driver spans)' : ''}`, () => {
  it("follows one addOrder from the caller's traceparent down to its SQL, links its webhook delivery to it, and sends a channel send's traceparent", async () => {
    const otlp = await startOtlpReceiver();
    stops.push(() => otlp.close());
    const receiver = await startReceiver();
    stops.push(() => receiver.close());
    const wa = await createWhatsAppEmulator({ acceptAnyTemplate: true });
    stops.push(() => wa.close());
    const db = await freshDatabase('tracing');
    if (!db) throw new Error('DATABASE_URL is needed');
    stops.push(() => db.drop());
    const server = await startServerProcess({
      ADMIN_TOKEN,
      DEMO_COMPANY: '0',
      DATABASE_URL: db.url,
      WEBHOOK_ALLOW_PRIVATE: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      SCHEDULER_INTERVAL_MS: '100',
      ...whatsappEnvFor(wa),
    });
    stops.push(() => server.stop());
    const call = jsonCaller(server.url);
    const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Traced', company_id: 'TRACED' });
    const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
    await call('POST', `/api/v2/companies/${company.uuid}/webhooks`, ADMIN_TOKEN, { url: receiver.url });

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const res = await fetch(`${server.url}/api/order/addOrder`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok.token}`, 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: JSON.stringify(sampleOrder('TRACED', 'TR-1')),
    });
    expect(res.status).toBe(201);
    await vi.waitFor(() => expect(receiver.received.length).toBe(1), { timeout: 20_000, interval: 100 });
    // The receiver got a traceparent of the delivery's own trace.
    const sent = String(receiver.received[0]?.headers.traceparent ?? '');
    expect(sent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(sent.split('-')[1]).not.toBe(traceId);

    await vi.waitFor(() => expect(otlp.spans.some((s) => s.name === 'webhook delivery')).toBe(true), { timeout: 20_000, interval: 100 });
    const inTrace = otlp.spans.filter((s) => s.traceId === traceId);
    const request = inTrace.find((s) => s.name === 'POST addOrder');
    expect(request, JSON.stringify(inTrace.map((s) => s.name))).toBeDefined();
    expect(request?.parentSpanId).toBe(callerSpanId);
    expect(request?.attributes['engagekit.operation']).toBe('addOrder');
    // Every other span of the trace descends from the request's, and some are its SQL statements.
    const byId = new Map(inTrace.map((s) => [s.spanId, s]));
    const descends = (s: Span): boolean => {
      for (let at: Span | undefined = s; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) if (at === request) return true;
      return false;
    };
    const sqlSpans = inTrace.filter((s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql');
    expect(sqlSpans.length).toBeGreaterThan(0);
    expect(inTrace.filter((s) => s !== request).every(descends)).toBe(true);
    // No parameter values: the order's id and the customer's phone are in none of the spans.
    expect(JSON.stringify(inTrace)).not.toMatch(/TR-1|919800000001/);

    const delivery = otlp.spans.find((s) => s.name === 'webhook delivery');
    expect(delivery?.traceId).toBe(sent.split('-')[1]);
    expect(delivery?.links?.map((l) => l.traceId)).toContain(traceId);
    expect(delivery?.attributes['http.response.status_code']).toBe(200);

    // A campaign to the order's customer, sent to WhatsApp by the scheduler, under no request.
    await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'welcome', phone_number: '15550000000', wam_id: 'tpl-traced' });
    await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
      name: 'traced',
      schedule_type: 'once',
      schedule: new Date().toISOString(),
      template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
    });
    await vi.waitFor(() => expect(wa.messages()).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const carried = String(wa.messages()[0]?.traceparent);
    expect(carried).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    const [, sendTrace, sendParent] = carried.split('-');
    await vi.waitFor(() => expect(otlp.spans.some((s) => s.name === 'channel send')).toBe(true), { timeout: 20_000, interval: 100 });
    const send = otlp.spans.find((s) => s.name === 'channel send');
    expect(send?.traceId).toBe(sendTrace);
    expect(send?.parentSpanId || undefined).toBeUndefined();
    expect(send?.attributes).toMatchObject({ 'engagekit.channel': 'whatsapp', 'engagekit.channel.outcome': 'sent' });
    // The header names the span of the send's call through fetch, a child of the channel send's.
    await vi.waitFor(() => expect(otlp.spans.find((s) => s.spanId === sendParent)?.parentSpanId).toBe(send?.spanId), { timeout: 10_000, interval: 100 });
    expect(JSON.stringify(otlp.spans.filter((s) => s.traceId === sendTrace))).not.toMatch(/919800000001/);
  }, 90_000);
});
