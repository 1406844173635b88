import { createServer } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ChannelAdapter, createSimulatedChannel, type OutboundMessage } from '../src/campaigns/channel.ts';
import { renderTemplate, renderValue } from '../src/campaigns/render.ts';
import { createScheduler } from '../src/campaigns/scheduler.ts';
import { createWhatsAppChannel } from '../src/campaigns/whatsapp.ts';
import { createManualClock } from '../src/clock.ts';
import { nextRecurringRun } from '../src/domain/schedule.ts';
import { createSeededIds } from '../src/ids.ts';
import { createMemoryStore, openSqlStore } from '../src/store/index.ts';
import type { CampaignRecord, CompanyRecord, Store } from '../src/store/types.ts';
import { freshDatabase } from './helpers.ts';

const customer = { firstName: 'Asha', lastName: 'Rao', name: 'Asha Rao', phoneNumber: '+919800000001', email: null };

describe('template rendering', () => {
  it('fills customer placeholders and keeps other text', () => {
    expect(renderValue('Hi {{customer.firstName}} ({{ customer.phoneNumber }})!', customer)).toBe('Hi Asha (+919800000001)!');
    expect(renderValue('{{customer.email}}|{{customer.unknown}}', customer)).toBe('|{{customer.unknown}}');
  });

  it('renders header, body and cards in declared order', () => {
    const t = renderTemplate(
      {
        template_name: 'offer',
        language: 'en',
        header_variable: ['city'],
        body_variable: ['first_name', 'discount'],
        variables: { discount: '10%', first_name: '{{customer.firstName}}', city: 'Pune' },
        cards: [{ card_image_url: 'https://example.com/a.jpg', card_body_variables: ['{{customer.name}}'] }],
      },
      customer,
    );
    expect(t).toEqual({
      name: 'offer',
      language: 'en',
      header: ['Pune'],
      body: ['Asha', '10%'],
      cards: [{ image_url: 'https://example.com/a.jpg', body: ['Asha Rao'] }],
      variables: { discount: '10%', first_name: 'Asha', city: 'Pune' },
    });
  });
});

describe('the simulated channel', () => {
  it('answers the same key the same way, and fails about the configured share', async () => {
    const channel = createSimulatedChannel({ failureRate: 0.05 });
    const msg = (key: string): OutboundMessage => ({
      to: '+10000000000',
      key,
      template: { name: 't', language: 'en', header: [], body: [], cards: [], variables: {} },
    });
    expect(await channel.send(msg('a'))).toEqual(await channel.send(msg('a')));
    const outcomes = await Promise.all(Array.from({ length: 10_000 }, (_, i) => channel.send(msg(`k${i}`))));
    const share = (s: string) => outcomes.filter((o) => o.status === s).length / outcomes.length;
    expect(share('failed')).toBeGreaterThan(0.04);
    expect(share('failed')).toBeLessThan(0.06);
    expect(share('read')).toBeGreaterThan(0.5);
    await expect(createSimulatedChannel({ failureRate: 1 }).send(msg('a'))).resolves.toMatchObject({ status: 'failed' });
  });
});

describe('recurring schedule', () => {
  it('finds the next listed weekday and time in UTC', () => {
    const days = { monday: ['09:00', '18:30'], friday: ['10:00'] };
    // 2026-01-05 is a Monday.
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-05T08:00:00Z'))?.toISOString()).toBe('2026-01-05T09:00:00.000Z');
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-05T09:00:00.001Z'))?.toISOString()).toBe('2026-01-05T18:30:00.000Z');
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-05T19:00:00Z'))?.toISOString()).toBe('2026-01-09T10:00:00.000Z');
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-09T10:00:01Z'))?.toISOString()).toBe('2026-01-12T09:00:00.000Z');
  });

  it('reads times in the company time zone, across a DST change', () => {
    expect(nextRecurringRun({ monday: ['09:00'] }, 'Asia/Kolkata', new Date('2026-01-05T00:00:00Z'))?.toISOString()).toBe('2026-01-05T03:30:00.000Z');
    // New York: EST (UTC-5) in January, EDT (UTC-4) after 2026-03-08.
    expect(nextRecurringRun({ monday: ['09:00'] }, 'America/New_York', new Date('2026-03-02T00:00:00Z'))?.toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(nextRecurringRun({ monday: ['09:00'] }, 'America/New_York', new Date('2026-03-09T00:00:00Z'))?.toISOString()).toBe('2026-03-09T13:00:00.000Z');
  });
});

/** A channel that records every send and can be made to hang on the n-th. */
function recordingChannel(hangOn?: number): ChannelAdapter & { sent: OutboundMessage[] } {
  const inner = createSimulatedChannel({ failureRate: 0 });
  const sent: OutboundMessage[] = [];
  return {
    name: 'recording',
    sent,
    async send(m) {
      sent.push(m);
      if (hangOn !== undefined && sent.length === hangOn) return new Promise(() => {});
      return inner.send(m);
    },
  };
}

const stores: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of stores) await close();
});
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

for (const kind of ['memory', 'pglite'] as const) {
  describe(`campaign runs on the ${kind} store`, () => {
    let shared: Store | undefined;
    const storeFor = async () => {
      if (kind === 'memory') return createMemoryStore();
      if (!shared) {
        shared = await openSqlStore({ memory: true });
        const s = shared;
        stores.push(() => s.close());
      }
      return shared;
    };
    let n = 0;

    async function fixture(customers: number, campaign: Partial<CampaignRecord> = {}) {
      const store = await storeFor();
      const clock = createManualClock(new Date('2026-01-05T08:00:00.000Z'));
      const ids = createSeededIds(`${kind}-${n++}`);
      const company: CompanyRecord = { uuid: ids.uuid(), company_id: `RUN${n}${kind}`, name: 'Runner', timezone: 'UTC', created_at: clock.now().toISOString() };
      await store.createCompany(company);
      await store.importCustomers(
        { newId: ids.newId, now: clock.now().toISOString() },
        company.uuid,
        Array.from({ length: customers }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` })),
      );
      const created = await store.createCampaign({
        id: ids.newId('cmp'),
        company_uuid: company.uuid,
        name: 'hello',
        status: 'scheduled',
        schedule_type: 'once',
        schedule: '2026-01-05T09:00:00.000Z',
        days: null,
        template_payload: {
          template_name: 'welcome',
          language: 'en',
          header_variable: [],
          body_variable: ['first_name'],
          variables: { first_name: '{{customer.firstName}}' },
        },
        endDate: null,
        next_run_at: '2026-01-05T09:00:00.000Z',
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
        ...campaign,
      });
      return { store, clock, ids, company, campaign: created };
    }

    it('runs a once campaign at its time: one message per customer, rendered, then completed', async () => {
      const { store, clock, ids, company, campaign } = await fixture(5);
      const channel = recordingChannel();
      const scheduler = createScheduler({ store, channel, clock, ids, pageSize: 2 });
      expect(await scheduler.tick()).toBe(0);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      expect(await scheduler.tick()).toBe(1);
      expect(channel.sent.map((m) => m.template.body[0]).sort()).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed', next_run_at: null, endDate: '2026-01-05' });
      const totals = await store.messageTotals(company.uuid);
      expect(totals.company).toEqual({ total: 5, sent: 5, delivered: expect.any(Number), read: expect.any(Number), failed: 0 });
      expect(totals.campaigns.get(campaign.id)).toMatchObject({ total: 5, runs: 1, last_run_at: '2026-01-05T09:00:00.000Z' });
      expect(await scheduler.tick()).toBe(0);
    });

    it('runs a recurring campaign at each listed time and stays scheduled', async () => {
      const { store, clock, ids, company, campaign } = await fixture(2, { schedule_type: 'recurring', days: { monday: ['09:00', '18:30'] } });
      const channel = recordingChannel();
      const scheduler = createScheduler({ store, channel, clock, ids });
      clock.set(new Date('2026-01-05T09:00:30.000Z'));
      await scheduler.tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'scheduled', next_run_at: '2026-01-05T18:30:00.000Z' });
      clock.set(new Date('2026-01-05T18:30:00.000Z'));
      await scheduler.tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'scheduled', next_run_at: '2026-01-12T09:00:00.000Z' });
      expect(channel.sent).toHaveLength(4);
      expect((await store.messageTotals(company.uuid)).campaigns.get(campaign.id)?.runs).toBe(2);
    });

    it('marks a run failed when every message failed', async () => {
      const { store, clock, ids, company, campaign } = await fixture(3);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      await createScheduler({ store, channel: createSimulatedChannel({ failureRate: 1 }), clock, ids }).tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'failed' });
    });

    it('runs a due time once when two schedulers tick together', async () => {
      const { store, clock, ids, company } = await fixture(20);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const a = recordingChannel();
      const b = recordingChannel();
      await Promise.all([createScheduler({ store, channel: a, clock, ids }).tick(), createScheduler({ store, channel: b, clock, ids }).tick()]);
      expect(a.sent.length + b.sent.length).toBe(20);
      expect((await store.messageTotals(company.uuid)).company.total).toBe(20);
    });

    it('resumes a run whose runner died, messaging nobody twice', async () => {
      const { store, clock, ids, company, campaign } = await fixture(8);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const dying = recordingChannel(4); // hangs forever on its 4th send: a crash mid-run
      void createScheduler({ store, channel: dying, clock, ids, leaseMs: 30_000, pageSize: 3 }).tick();
      await new Promise<void>((r) => {
        const poll = () => (dying.sent.length >= 4 ? r() : setTimeout(poll, 5));
        poll();
      });
      const second = recordingChannel();
      const other = createScheduler({ store, channel: second, clock, ids, leaseMs: 30_000 });
      expect(await other.tick()).toBe(0); // the lease still holds
      clock.advance(31_000);
      expect(await other.tick()).toBe(1);
      const phones = [...dying.sent, ...second.sent].map((m) => m.to);
      expect(new Set(phones).size).toBe(phones.length);
      expect(second.sent).toHaveLength(4);
      const run = await store.listRunMessages(campaign.id, '2026-01-05T09:00:00.000Z');
      expect(run).toHaveLength(8);
      expect(run.filter((m) => m.status === 'failed')).toEqual([expect.objectContaining({ error: expect.stringContaining('interrupted') })]);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });
  });
}

describe.skipIf(!process.env.DATABASE_URL)(`campaign runs on PostgreSQL${process.env.DATABASE_URL ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
  it('runs a due time once across two instances (two stores on one database)', async () => {
    const db = await freshDatabase('runs');
    if (!db) throw new Error('DATABASE_URL is needed');
    const s1 = await openSqlStore({ databaseUrl: db.url });
    const s2 = await openSqlStore({ databaseUrl: db.url });
    cleanups.push(
      () => db.drop(),
      () => s1.close(),
      () => s2.close(),
    );
    const clock = createManualClock(new Date('2026-01-05T09:00:00.000Z'));
    const ids = createSeededIds('pg-runs');
    const company: CompanyRecord = { uuid: ids.uuid(), company_id: 'RUNPG', name: 'Runner', timezone: 'UTC', created_at: clock.now().toISOString() };
    await s1.createCompany(company);
    await s1.importCustomers(
      { newId: ids.newId, now: clock.now().toISOString() },
      company.uuid,
      Array.from({ length: 50 }, (_, i) => ({ phoneNumber: `+1415556${String(i).padStart(4, '0')}`, firstName: `P${i}` })),
    );
    for (let i = 0; i < 4; i++) {
      await s1.createCampaign({
        id: ids.newId('cmp'),
        company_uuid: company.uuid,
        name: `c${i}`,
        status: 'scheduled',
        schedule_type: 'once',
        schedule: clock.now().toISOString(),
        days: null,
        template_payload: { template_name: 'welcome', language: 'en', header_variable: [], body_variable: [], variables: {} },
        endDate: null,
        next_run_at: clock.now().toISOString(),
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      });
    }
    const a = recordingChannel();
    const b = recordingChannel();
    await Promise.all([
      createScheduler({ store: s1, channel: a, clock, ids, pageSize: 7 }).tick(),
      createScheduler({ store: s2, channel: b, clock, ids: createSeededIds('other'), pageSize: 7 }).tick(),
    ]);
    const keys = [...a.sent, ...b.sent].map((m) => m.key);
    expect(keys).toHaveLength(200);
    expect(new Set(keys).size).toBe(200);
    expect(await s1.countCampaignsByStatus(company.uuid)).toEqual({ completed: 4 });
  });
});

describe('the WhatsApp Cloud API channel', () => {
  it('posts the template message the Cloud API expects, and maps its answers', async () => {
    const requests: { url: string; auth: string | undefined; body: unknown }[] = [];
    let answer = {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: '919800000001', wa_id: '919800000001' }], messages: [{ id: 'wamid.HBgM' }] } as unknown,
    };
    const fake = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        requests.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
    cleanups.push(() => new Promise((ok) => fake.close(ok)));
    const channel = createWhatsAppChannel({
      accessToken: 'EAAG-test',
      phoneNumberId: '1234567890',
      baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/v21.0`,
    });
    const template = renderTemplate(
      {
        template_name: 'carousel_offer',
        language: 'en_US',
        header_variable: ['city'],
        body_variable: ['first_name'],
        variables: { city: 'Pune', first_name: '{{customer.firstName}}' },
        cards: [{ card_image_url: 'https://example.com/image1.jpg', card_body_variables: ['10%'] }],
      },
      customer,
    );
    const result = await channel.send({ to: '+919800000001', template, key: 'k' });
    expect(result).toEqual({ status: 'sent', providerMessageId: 'wamid.HBgM', error: null });
    expect(requests[0]).toEqual({
      url: '/v21.0/1234567890/messages',
      auth: 'Bearer EAAG-test',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919800000001',
        type: 'template',
        template: {
          name: 'carousel_offer',
          language: { code: 'en_US' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: 'Pune' }] },
            { type: 'body', parameters: [{ type: 'text', text: 'Asha' }] },
            {
              type: 'carousel',
              cards: [
                {
                  card_index: 0,
                  components: [
                    { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/image1.jpg' } }] },
                    { type: 'body', parameters: [{ type: 'text', text: '10%' }] },
                  ],
                },
              ],
            },
          ],
        },
      },
    });
    answer = { status: 400, body: { error: { message: '(#132001) Template name does not exist in the translation', code: 132001 } } };
    expect(await channel.send({ to: '+919800000001', template, key: 'k2' })).toEqual({
      status: 'failed',
      providerMessageId: null,
      error: 'WhatsApp answered 400: (#132001) Template name does not exist in the translation (code 132001)',
    });
    const down = createWhatsAppChannel({ accessToken: 'x', phoneNumberId: '1', baseUrl: 'http://127.0.0.1:9/v21.0' });
    expect((await down.send({ to: '+919800000001', template, key: 'k3' })).error).toMatch(/^WhatsApp did not answer/);
  });
});
