/**
 * Pausing, resuming and cancelling campaigns on the real server process: a run of 200 customers,
 * paused half-way, stops sending; resumed, it completes with one message per customer. A recurring
 * campaign cancelled never runs again.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, jsonCaller, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'campaign-control-e2e-admin-01';
const CUSTOMERS = 200;
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

for (const database of ['pglite', 'postgres'] as const) {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  describe.skipIf(skip)(`campaign controls on ${database}${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`, () => {
    it('pauses a run half-way, so its messages stop, and resumes it to one message per customer; cancels a recurring campaign for good', async () => {
      // 40 chunks of 5, one at a time, each taking 100 ms: a run of about 4 s.
      const env: Record<string, string> = {
        ADMIN_TOKEN,
        DEMO_COMPANY: '0',
        SCHEDULER_INTERVAL_MS: '100',
        SIMULATED_FAILURE_RATE: '0',
        SIMULATED_LATENCY_MS: '100',
        CAMPAIGN_CHUNK_SIZE: '5',
        CAMPAIGN_CHUNK_CONCURRENCY: '1',
      };
      if (database === 'postgres') {
        const db = await freshDatabase('control');
        if (!db) throw new Error('DATABASE_URL is needed');
        env.DATABASE_URL = db.url;
        stops.push(() => db.drop());
      }
      const server = await startServerProcess(env);
      stops.push(() => server.stop());
      const call = jsonCaller(server.url);
      const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Controls', company_id: 'CONTROLS' });
      const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
      const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` }));
      await call('POST', `/api/v2/companies/${company.uuid}/customers`, ADMIN_TOKEN, { customers });
      const campaigns = `/api/v2/companies/${company.uuid}/campaigns`;
      const get = async (id: string) => (await call('GET', `/agency/getCampaign/${id}?uuid=${company.uuid}`, tok.token)).data;
      const messages = async () => (await call('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token)).data.messages;

      const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
        name: 'half-way',
        schedule_type: 'once',
        schedule: new Date(Date.now() + 1000).toISOString(),
        template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
      });
      await vi.waitFor(async () => expect((await messages()).total).toBeGreaterThanOrEqual(CUSTOMERS / 4), { timeout: 30_000, interval: 50 });

      // Paused with the company's token: the chunk in flight ends, then nothing more is sent.
      const { data: paused } = await call('POST', `${campaigns}/${campaign.id}/pause`, tok.token);
      expect(paused).toMatchObject({ id: campaign.id, status: 'paused', pause_reason: 'paused by the company' });
      await sleep(500);
      const stopped = (await messages()).total;
      expect(stopped).toBeLessThan(CUSTOMERS);
      await sleep(1000);
      expect((await messages()).total).toBe(stopped);
      expect(await get(campaign.id)).toMatchObject({ status: 'paused' });

      // Resumed with the admin token: the run goes on and completes.
      const { data: resumed } = await call('POST', `${campaigns}/${campaign.id}/resume`, ADMIN_TOKEN);
      expect(resumed).toMatchObject({ status: 'running', pause_reason: null });
      await vi.waitFor(async () => expect((await get(campaign.id)).status).toBe('completed'), { timeout: 60_000, interval: 200 });
      expect(await messages()).toMatchObject({ total: CUSTOMERS, sent: CUSTOMERS, failed: 0 });
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token);
      expect(report.campaigns_detail[0]).toMatchObject({ id: campaign.id, status: 'completed', runs: 1, messages: { total: CUSTOMERS } });

      // A completed campaign cannot be paused: 409 with its own code.
      const refused = await fetch(`${server.url}${campaigns}/${campaign.id}/pause`, { method: 'POST', headers: { authorization: `Bearer ${tok.token}` } });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        code: 'campaign_status_conflict',
        message: `Campaign ${campaign.id} is completed: only a scheduled or running campaign can be paused.`,
      });

      // A recurring campaign, cancelled before its first run: it never runs.
      const { data: weekly } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
        name: 'weekly',
        schedule_type: 'recurring',
        schedule: new Date(Date.now() + 1000).toISOString(),
        days: { monday: ['09:00'], tuesday: ['09:00'], wednesday: ['09:00'], thursday: ['09:00'], friday: ['09:00'], saturday: ['09:00'], sunday: ['09:00'] },
        template_payload: { template_name: 'welcome' },
      });
      expect(weekly.next_run_at).not.toBeNull();
      const { data: cancelled } = await call('POST', `${campaigns}/${weekly.id}/cancel`, tok.token);
      expect(cancelled).toMatchObject({ status: 'cancelled', next_run_at: null, endDate: new Date().toISOString().slice(0, 10) });
      expect(await get(weekly.id)).toMatchObject({ status: 'cancelled', next_run_at: null });
      const { data: again } = await call('POST', `${campaigns}/${weekly.id}/cancel`, tok.token);
      expect(again).toMatchObject({ status: 'cancelled' });
    }, 120_000);
  });
}
