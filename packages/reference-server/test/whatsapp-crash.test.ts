/**
 * The crash rule's second half, with the WhatsApp emulator: an instance killed (SIGKILL) while its
 * sends were in flight at WhatsApp leaves those messages failed as interrupted (the instance that
 * takes the run over does not send them again), and the statuses WhatsApp sends for them afterwards,
 * matched by the message's own id in `biz_opaque_callback_data`, correct them to what really happened.
 * And an instance killed while its messages wait to be sent again: another sends each once.
 */
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createWhatsAppEmulator, type WhatsAppEmulator } from '../../whatsapp-emulator/src/index.ts';
import { freshDatabase, jsonCaller, type ServerProcess, startServerProcess, whatsappEnvFor } from './helpers.ts';

const ADMIN_TOKEN = 'whatsapp-crash-admin-token-01';
const CUSTOMERS = 10;
/** Two chunks of 5 run at once by the first instance: two sends in flight when it is killed. */
const CHUNK_SIZE = 5;
const IN_FLIGHT = 2;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A fresh PostgreSQL database named after `label` (dropped after the file), and `start`: a server
 * process on it sending campaigns to `wa`, with `settings` over the common ones, SIGKILLed after the file.
 */
async function instancesOn(wa: WhatsAppEmulator, label: string, settings: Record<string, string>) {
  const db = await freshDatabase(label);
  if (!db) throw new Error('DATABASE_URL is needed');
  cleanups.push(() => db.drop());
  const env = {
    DATABASE_URL: db.url,
    ADMIN_TOKEN,
    DEMO_COMPANY: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    SCHEDULER_INTERVAL_MS: '100',
    LEASE_MS: '1000',
    ...settings,
    ...whatsappEnvFor(wa),
  };
  const start = async (): Promise<ServerProcess> => {
    const server = await startServerProcess(env, 60_000);
    cleanups.push(() => server.stop('SIGKILL'));
    return server;
  };
  return { db, start };
}

/** A company `companyId` with `count` customers (`prefix` then 4 digits), the template `promo` submitted, and a campaign `name` of it due now. */
async function campaignOn(url: string, name: string, companyId: string, count: number, prefix: string) {
  const call = jsonCaller(url);
  const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name, company_id: companyId });
  const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
  const customers = Array.from({ length: count }, (_, i) => ({ phoneNumber: `${prefix}${String(i).padStart(4, '0')}`, firstName: `C${i}` }));
  await call('POST', `/api/v2/companies/${company.uuid}/customers`, ADMIN_TOKEN, { customers });
  await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'promo', phone_number: '15550000000', wam_id: `tpl-${companyId}` });
  const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
    name,
    schedule_type: 'once',
    schedule: new Date().toISOString(),
    template_payload: { template_name: 'promo', language: 'en', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  });
  return { company: company as { uuid: string }, token: tok.token as string, campaign: campaign as { id: string }, count };
}

const skip = !process.env.DATABASE_URL;
describe.skipIf(skip)(`a WhatsApp send in flight when its instance is killed${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`, () => {
  it('is failed as interrupted, not sent again, and corrected by the statuses WhatsApp sends for it later', async () => {
    // WhatsApp accepts each message at once and answers a minute later; its webhooks wait until released.
    const wa = await createWhatsAppEmulator({ templates: [{ name: 'promo', language: 'en', bodyParams: 1 }], answerMs: 60_000, holdWebhooks: true });
    cleanups.push(() => wa.close());
    const { db, start } = await instancesOn(wa, 'whatsapp_crash', {
      CAMPAIGN_CHUNK_SIZE: String(CHUNK_SIZE),
      CAMPAIGN_CHUNK_CONCURRENCY: String(IN_FLIGHT),
      // Four a second, two chunks at once: one message a chunk in flight (inFlightForPace).
      WHATSAPP_MESSAGES_PER_SECOND: '4',
    });
    const first = await start();
    // Numbers ending 0000 to 0009: the emulator's fate for them is sent, delivered, read.
    const { company, token, campaign } = await campaignOn(first.url, 'crash run', 'WA_CRASH', CUSTOMERS, '+1555000');

    // ---- killed with a send of each chunk accepted by WhatsApp and unanswered ----
    await vi.waitFor(() => expect(wa.messages()).toHaveLength(IN_FLIGHT), { timeout: 60_000, interval: 20 });
    expect(await first.stop('SIGKILL')).toBe(null);
    const inFlight = new Set(wa.messages().map((m) => m.bizOpaqueCallbackData));

    // ---- another instance takes the run over once the leases run out, and WhatsApp answers at once ----
    await wa.configure({ answerMs: 0 });
    const second: ServerProcess = await start();
    const callSecond = jsonCaller(second.url);
    const report = async () => (await callSecond('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, token)).data;
    await vi.waitFor(
      async () => expect((await callSecond('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, token)).data.status).toBe('completed'),
      { timeout: 60_000, interval: 100 },
    );
    expect(wa.messages()).toHaveLength(CUSTOMERS);
    expect(new Set(wa.messages().map((m) => m.waId)).size).toBe(CUSTOMERS);
    expect((await report()).messages).toEqual({ total: CUSTOMERS, sent: CUSTOMERS - IN_FLIGHT, delivered: 0, read: 0, failed: IN_FLIGHT });
    const rows = async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        return (await client.query('SELECT id, status, error, provider_message_id FROM messages WHERE campaign_id = $1 ORDER BY id', [campaign.id])).rows;
      } finally {
        await client.end();
      }
    };
    const interrupted = (await rows()).filter((r) => r.status === 'failed');
    expect(new Set(interrupted.map((r) => r.id))).toEqual(inFlight);
    for (const r of interrupted) expect(r).toMatchObject({ error: expect.stringMatching(/^interrupted/), provider_message_id: null });

    // ---- WhatsApp's statuses arrive: every message read, the interrupted ones included ----
    await wa.setCallbackUrl(`${second.url}/channels/whatsapp/webhook`);
    await wa.configure({ holdWebhooks: false });
    await wa.quiet({ timeoutMs: 60_000 });
    expect((await report()).messages).toEqual({ total: CUSTOMERS, sent: CUSTOMERS, delivered: CUSTOMERS, read: CUSTOMERS, failed: 0 });
    const wamidOf = new Map(wa.messages().map((m) => [m.bizOpaqueCallbackData, m.wamid]));
    for (const r of await rows()) expect(r).toEqual({ id: r.id, status: 'read', error: null, provider_message_id: wamidOf.get(r.id) });
  }, 180_000);

  it('loses and doubles nothing when an instance is killed while its messages wait to be sent again', async () => {
    // Every recipient's first two sends meet a passing fault (131000); the third is accepted.
    const wa = await createWhatsAppEmulator({
      templates: [{ name: 'promo', language: 'en', bodyParams: 1 }],
      messagesPerSecond: 1000,
      refusals: [{ match: '*', code: 131000, times: 2 }],
    });
    cleanups.push(() => wa.close());
    const { db, start } = await instancesOn(wa, 'whatsapp_retry_crash', {
      CAMPAIGN_CHUNK_SIZE: '10',
      WHATSAPP_MESSAGES_PER_SECOND: '100',
      // The first retry 1 to 2 s after the refusal, the second 4 to 8 s.
      WHATSAPP_RETRY_BASE_MS: '2000',
    });
    const [first, second] = [await start(), await start()];
    const call = jsonCaller(second.url);
    const { company, token, campaign, count } = await campaignOn(second.url, 'retry crash', 'WA_RETRY_CRASH', CUSTOMERS * 3, '+1555100');

    // ---- killed once every first send was refused and recorded as waiting for its retry ----
    // (Killed between a refusal and its record, a message would still be `sending`: interrupted, the crash rule.)
    const waiting = async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1 AND status = 'pending' AND attempts = 1", [
          campaign.id,
        ]);
        return rows[0].n as number;
      } finally {
        await client.end();
      }
    };
    await vi.waitFor(async () => expect(await waiting()).toBe(count), { timeout: 60_000, interval: 50 });
    expect(await first.stop('SIGKILL')).toBe(null);

    await vi.waitFor(async () => expect((await call('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, token)).data.status).toBe('completed'), {
      timeout: 90_000,
      interval: 200,
    });
    // Each customer refused twice and sent once: nothing lost, nothing sent twice.
    expect(wa.messages()).toHaveLength(count);
    expect(new Set(wa.messages().map((m) => m.waId)).size).toBe(count);
    expect(wa.refused()).toHaveLength(count * 2);
    const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, token);
    expect(report.messages).toMatchObject({ total: count, sent: count, failed: 0 });
  }, 180_000);
});
