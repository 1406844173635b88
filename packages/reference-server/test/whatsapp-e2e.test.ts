/**
 * A campaign to 200 customers through the WhatsApp channel, sent to the WhatsApp emulator, whose
 * status webhooks come back signed to the server's `/channels/whatsapp/webhook`: the report ends as the
 * emulator's fate rules imply, on PGlite and on PostgreSQL.
 */
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createWhatsAppEmulator, type WhatsAppEmulator } from '../../whatsapp-emulator/src/index.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { freshDatabase, jsonCaller, pgliteDataDir, whatsappEnvFor } from './helpers.ts';

const ADMIN_TOKEN = 'whatsapp-e2e-admin-token-01';
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * The emulator's built-in fates by the recipient's last digits (its README): 9990 fails (131026), 9991
 * is delivered and never read, 9992 is read without a delivered, 9993 fails (131042), 9994 is only sent;
 * any other number is read. Customer i gets suffix FATES[i % 8].
 */
const FATES = ['9990', '9991', '9992', '9993', '9994', '0000', '0001', '0002'];
const phoneOf = (i: number) => `+447${String(i).padStart(3, '0')}00${FATES[i % FATES.length]}`;

/** The campaigns' template: `promo`, its body's one variable the customer's first name. */
const PROMO = { template_name: 'promo', language: 'en', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } };

/**
 * A server with CHANNEL=whatsapp sending to `wa` on `database` (a fresh PostgreSQL database named after
 * `label`, or PGlite), stopped after the file, and `wa` posting its webhooks back to it.
 */
async function serverFor(wa: WhatsAppEmulator, database: 'pglite' | 'postgres', label: string, extra: Record<string, string> = {}) {
  const env: Record<string, string> = {
    PORT: '0',
    ADMIN_TOKEN,
    DEMO_COMPANY: '0',
    LOG_LEVEL: 'silent',
    ...whatsappEnvFor(wa),
    ...extra,
  };
  if (database === 'postgres') {
    const db = await freshDatabase(label);
    if (!db) throw new Error('DATABASE_URL is needed');
    env.DATABASE_URL = db.url;
    cleanups.push(() => db.drop());
  } else {
    env.DATA_DIR = await pgliteDataDir('engagekit-whatsapp-');
  }
  const server = await startServer(loadConfig(env), pino({ level: 'silent' }), 'test');
  cleanups.push(() => server.close());
  await wa.setCallbackUrl(`${server.url}/channels/whatsapp/webhook`);
  /** Another instance on the same database (PostgreSQL only). */
  const another = async () => {
    const next = await startServer(loadConfig(env), pino({ level: 'silent' }), 'test');
    cleanups.push(() => next.close());
    return next;
  };
  return Object.assign(server, { another });
}

/** A company with `customers` customers, the template `promo` submitted, and a campaign of it due now. */
async function campaignOf(url: string, customers: number, name: string) {
  const call = jsonCaller(url);
  const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name, company_id: name.toUpperCase() });
  const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
  const list = Array.from({ length: customers }, (_, i) => ({ phoneNumber: `+1555${String(i).padStart(7, '0')}`, firstName: `C${i}` }));
  await call('POST', `/api/v2/companies/${company.uuid}/customers`, ADMIN_TOKEN, { customers: list });
  await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'promo', phone_number: '15550000000', wam_id: `tpl-${name}` });
  const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
    name,
    schedule_type: 'once',
    schedule: new Date().toISOString(),
    template_payload: PROMO,
  });
  return { call, token: tok.token as string, uuid: company.uuid as string, campaignId: campaign.id as string };
}

for (const database of ['pglite', 'postgres'] as const) {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  describe.skipIf(skip)(`the WhatsApp channel on ${database}${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`, () => {
    it("sends a campaign to 200 customers and reports what the provider's statuses say", async () => {
      const wa = await createWhatsAppEmulator({
        templates: [{ name: 'promo', language: 'en', bodyParams: 1 }],
        messagesPerSecond: 100_000,
        sentMs: 5,
        deliveredMs: 20,
        readMs: 40,
        // Some statuses come twice and out of order, as WhatsApp's may.
        disorder: { outOfOrder: true, duplicates: true },
      });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_e2e', { SCHEDULER_INTERVAL_MS: '100' });

      const call = jsonCaller(server.url);
      const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Channel', company_id: 'CHANNEL' });
      const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
      const customers = Array.from({ length: 200 }, (_, i) => ({ phoneNumber: phoneOf(i), firstName: `C${i}` }));
      expect((await call('POST', `/api/v2/companies/${company.uuid}/customers`, ADMIN_TOKEN, { customers })).data).toEqual({ created: 200, updated: 0 });
      await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'promo', phone_number: '15550000000', wam_id: 'tpl-1' });
      const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
        name: 'promo run',
        schedule_type: 'once',
        schedule: new Date(Date.now() + 500).toISOString(),
        template_payload: PROMO,
      });
      await vi.waitFor(
        async () => expect((await call('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, tok.token)).data.status).toBe('completed'),
        { timeout: 60_000, interval: 100 },
      );
      // Every status posted and answered; a slow machine gets time for all of them.
      await wa.quiet({ timeoutMs: 60_000 });
      expect(wa.messages()).toHaveLength(200);

      // Of every 8 customers: 2 fail (131026 and 131042), 6 are sent; 5 delivered (the read without a
      // delivered counts as delivered too), 4 read.
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token);
      expect(report.messages).toEqual({ total: 200, sent: 150, delivered: 125, read: 100, failed: 50 });
      expect(report.campaigns_detail[0]).toMatchObject({
        id: campaign.id,
        messages: { total: 200, sent: 150, delivered: 125, read: 100, failed: 50 },
        failed_by_code: [
          { code: 131026, count: 25 },
          { code: 131042, count: 25 },
        ],
      });
    }, 120_000);

    it(`keeps to WhatsApp's throughput on ${database === 'postgres' ? 'two instances' : 'one instance'}: 200 customers at 20 a second, none refused`, async () => {
      const wa = await createWhatsAppEmulator({ templates: [{ name: 'promo', language: 'en', bodyParams: 1 }], messagesPerSecond: 20 });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_pace', {
        SCHEDULER_INTERVAL_MS: '100',
        WHATSAPP_MESSAGES_PER_SECOND: '20',
        CAMPAIGN_CHUNK_SIZE: '25',
      });
      if (database === 'postgres') await server.another();
      const call = jsonCaller(server.url);
      const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Pace', company_id: 'PACE' });
      const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
      const customers = Array.from({ length: 200 }, (_, i) => ({ phoneNumber: `+1555${String(i).padStart(7, '0')}`, firstName: `C${i}` }));
      await call('POST', `/api/v2/companies/${company.uuid}/customers`, ADMIN_TOKEN, { customers });
      await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'promo', phone_number: '15550000000', wam_id: 'tpl-pace' });
      const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
        name: 'paced',
        schedule_type: 'once',
        schedule: new Date().toISOString(),
        template_payload: PROMO,
      });
      await vi.waitFor(
        async () => expect((await call('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, tok.token)).data.status).toBe('completed'),
        { timeout: 60_000, interval: 200 },
      );
      expect(wa.refused()).toEqual([]);
      const sent = wa.messages();
      expect(sent).toHaveLength(200);
      expect(new Set(sent.map((m) => m.waId)).size).toBe(200);
      // 20 a second from the first: the 200th goes out no sooner than 9 s after the first.
      const times = sent.map((m) => m.acceptedAt).sort((a, b) => a - b);
      expect((times.at(-1) as number) - (times[0] as number)).toBeGreaterThanOrEqual(9_000);
    }, 90_000);

    it.skipIf(database !== 'postgres')(
      'waits for the pair rate rather than meet 131056: two campaigns to the same customers, on two instances',
      async () => {
        // WhatsApp takes one message to a user every 6 s, with no burst borrowed.
        const wa = await createWhatsAppEmulator({
          templates: [{ name: 'promo', language: 'en', bodyParams: 1 }],
          messagesPerSecond: 1000,
          pairRate: { intervalMs: 6_000, burst: 1 },
        });
        cleanups.push(() => wa.close());
        const server = await serverFor(wa, database, 'whatsapp_pair', { SCHEDULER_INTERVAL_MS: '100', WHATSAPP_MESSAGES_PER_SECOND: '100' });
        await server.another();
        const { call, token, uuid, campaignId } = await campaignOf(server.url, 10, 'pair');
        const { data: second } = await call('POST', `/agency/createCampaign?uuid=${uuid}`, token, {
          name: 'pair again',
          schedule_type: 'once',
          schedule: new Date().toISOString(),
          template_payload: PROMO,
        });
        for (const id of [campaignId, second.id]) {
          await vi.waitFor(async () => expect((await call('GET', `/agency/getCampaign/${id}?uuid=${uuid}`, token)).data.status).toBe('completed'), {
            timeout: 60_000,
            interval: 200,
          });
        }
        expect(wa.refused()).toEqual([]);
        expect(wa.messages()).toHaveLength(20);
        const byUser = new Map<string, number[]>();
        for (const m of wa.messages()) byUser.set(m.waId, [...(byUser.get(m.waId) ?? []), m.acceptedAt]);
        expect(byUser.size).toBe(10);
        for (const [, times] of byUser) {
          const [a, b] = times.sort((x, y) => x - y) as [number, number];
          expect(b - a).toBeGreaterThanOrEqual(6_000);
        }
      },
      90_000,
    );

    it('sends again what WhatsApp refuses for now (130429), until every customer has the message once', async () => {
      // WhatsApp takes 20 a second; the server is set to 40, so about half the first sends are refused.
      const wa = await createWhatsAppEmulator({ templates: [{ name: 'promo', language: 'en', bodyParams: 1 }], messagesPerSecond: 20 });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_retry', {
        SCHEDULER_INTERVAL_MS: '100',
        WHATSAPP_MESSAGES_PER_SECOND: '40',
        WHATSAPP_RETRY_BASE_MS: '200',
        WHATSAPP_MAX_ATTEMPTS: '10',
      });
      const { call, token, uuid, campaignId } = await campaignOf(server.url, 60, 'retried');
      await vi.waitFor(async () => expect((await call('GET', `/agency/getCampaign/${campaignId}?uuid=${uuid}`, token)).data.status).toBe('completed'), {
        timeout: 60_000,
        interval: 200,
      });
      expect(wa.refused().filter((r) => r.code === 130429).length).toBeGreaterThan(0);
      expect(wa.messages()).toHaveLength(60);
      expect(new Set(wa.messages().map((m) => m.waId)).size).toBe(60);
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${uuid}`, token);
      expect(report.messages).toMatchObject({ total: 60, failed: 0 });
    }, 90_000);

    it('pauses a campaign whose template WhatsApp no longer approves (132001), and completes it once approved and resumed', async () => {
      const wa = await createWhatsAppEmulator({ templates: [{ name: 'promo', language: 'en', bodyParams: 1 }], messagesPerSecond: 1000 });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_paused', { SCHEDULER_INTERVAL_MS: '100', WHATSAPP_MESSAGES_PER_SECOND: '20' });
      const { call, token, uuid, campaignId } = await campaignOf(server.url, 40, 'paused');
      const campaign = async () => (await call('GET', `/agency/getCampaign/${campaignId}?uuid=${uuid}`, token)).data;
      await vi.waitFor(() => expect(wa.messages().length).toBeGreaterThanOrEqual(10), { timeout: 30_000, interval: 20 });
      wa.setTemplateStatus({ name: 'promo', event: 'REJECTED' });
      await vi.waitFor(async () => expect((await campaign()).status).toBe('paused'), { timeout: 30_000, interval: 100 });
      expect((await campaign()).pause_reason).toMatch(/^WhatsApp error 132001 on template promo: /);
      // Nothing more goes out while it is paused.
      const accepted = wa.messages().length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(wa.messages()).toHaveLength(accepted);
      wa.setTemplateStatus({ name: 'promo', event: 'APPROVED' });
      await call('POST', `/api/v2/companies/${uuid}/campaigns/${campaignId}/resume`, token);
      await vi.waitFor(async () => expect((await campaign()).status).toBe('completed'), { timeout: 60_000, interval: 200 });
      expect(wa.messages()).toHaveLength(40);
      expect(new Set(wa.messages().map((m) => m.waId)).size).toBe(40);
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${uuid}`, token);
      expect(report.messages).toMatchObject({ total: 40, failed: 0 });
    }, 90_000);

    it('sends everything in the end when 10% of first sends meet a passing fault (131000), and fails undeliverable numbers once (131026)', async () => {
      const wa = await createWhatsAppEmulator({
        templates: [{ name: 'promo', language: 'en', bodyParams: 1 }],
        messagesPerSecond: 1000,
        refusals: [
          { match: { to: '+15550000007' }, code: 131026 },
          { match: { to: '+15550000013' }, code: 131026 },
          { match: '*', code: 131000, share: 0.1, times: 1 },
        ],
      });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_transient', {
        SCHEDULER_INTERVAL_MS: '100',
        WHATSAPP_MESSAGES_PER_SECOND: '100',
        WHATSAPP_RETRY_BASE_MS: '200',
      });
      const { call, token, uuid, campaignId } = await campaignOf(server.url, 60, 'transient');
      await vi.waitFor(async () => expect((await call('GET', `/agency/getCampaign/${campaignId}?uuid=${uuid}`, token)).data.status).toBe('completed'), {
        timeout: 60_000,
        interval: 200,
      });
      const faulted = wa.refused().filter((r) => r.code === 131000);
      expect(faulted.length).toBeGreaterThan(0);
      // Every customer but the two undeliverable ones has the message, once; those two were tried once.
      expect(wa.messages()).toHaveLength(58);
      expect(new Set(wa.messages().map((m) => m.waId)).size).toBe(58);
      expect(
        wa
          .refused()
          .filter((r) => r.code === 131026)
          .map((r) => r.to?.replace(/\D/g, ''))
          .sort(),
      ).toEqual(['15550000007', '15550000013']);
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${uuid}`, token);
      expect(report.messages).toMatchObject({ total: 60, failed: 2 });
      expect(report.campaigns_detail[0].failed_by_code).toEqual([{ code: 131026, count: 2 }]);
    }, 90_000);

    it('fails the run, with the reason, when WhatsApp refuses the access token (190)', async () => {
      const wa = await createWhatsAppEmulator({ templates: [{ name: 'promo', language: 'en', bodyParams: 1 }], messagesPerSecond: 1000 });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_token', {
        SCHEDULER_INTERVAL_MS: '100',
        WHATSAPP_MESSAGES_PER_SECOND: '20',
        WHATSAPP_ACCESS_TOKEN: 'a-revoked-token',
      });
      const { call, token, uuid, campaignId } = await campaignOf(server.url, 40, 'token');
      const campaign = async () => (await call('GET', `/agency/getCampaign/${campaignId}?uuid=${uuid}`, token)).data;
      await vi.waitFor(async () => expect((await campaign()).status).toBe('failed'), { timeout: 30_000, interval: 100 });
      expect(await campaign()).toMatchObject({ failure_reason: expect.stringMatching(/^WhatsApp error 190 \(the access token\): /), next_run_at: null });
      // The run stopped at the first answers: the sends in flight then, not one per customer.
      const tried = wa.refused().length;
      expect(tried).toBeLessThan(40);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(wa.refused()).toHaveLength(tried);
      expect(wa.messages()).toEqual([]);
    }, 60_000);

    it("tracks a template by WhatsApp's review and later changes, and refuses a campaign on one paused", async () => {
      // WhatsApp reviews a template soon after it is made (50 ms here), before the company submits its id to the server.
      const wa = await createWhatsAppEmulator({ templateReviewMs: 50 });
      cleanups.push(() => wa.close());
      const server = await serverFor(wa, database, 'whatsapp_templates');
      const call = jsonCaller(server.url);
      const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Templates', company_id: 'TEMPLATES' });
      const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});

      // The company creates its templates on WhatsApp's side (here, the emulator's template API), then submits their ids.
      const created = async (name: string) => {
        const res = await fetch(`${wa.apiUrl}/${wa.wabaId}/message_templates`, {
          method: 'POST',
          headers: { authorization: `Bearer ${wa.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, language: 'en', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hello {{1}}' }] }),
        });
        const { id } = (await res.json()) as { id: string };
        return { name, id };
      };
      const made = [await created('spring_sale'), await created('reject_spam')];
      // Both reviews have reached the server: the server keeps them for the ids submitted next.
      await wa.quiet();
      for (const { name, id } of made) {
        await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: name, phone_number: '15550000000', wam_id: id });
      }
      const statuses = async () =>
        Object.fromEntries(
          (await call('GET', `/api/v2/companies/${company.uuid}/templates`, tok.token)).data.map(
            (t: { template_name: string; status: string; reason: string | null }) => [t.template_name, [t.status, t.reason]],
          ),
        );
      expect(await statuses()).toEqual({ spring_sale: ['approved', null], reject_spam: ['rejected', 'INVALID_FORMAT'] });

      wa.setTemplateStatus({ name: 'spring_sale', event: 'PAUSED' });
      await wa.quiet();
      expect((await statuses()).spring_sale).toEqual(['paused', null]);
      await expect(
        call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
          name: 'paused one',
          schedule_type: 'once',
          schedule: new Date(Date.now() + 60_000).toISOString(),
          template_payload: { template_name: 'spring_sale', body_variable: [], variables: {} },
        }),
      ).rejects.toThrow(/400 .*template_not_usable.*spring_sale/);

      wa.setTemplateStatus({ name: 'spring_sale', event: 'REINSTATED' });
      await wa.quiet();
      expect((await statuses()).spring_sale).toEqual(['approved', null]);
    }, 60_000);
  });
}
