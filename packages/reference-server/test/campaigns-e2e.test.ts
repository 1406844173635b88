/** A campaign due in two seconds, run by the real server process, read back through the report. */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, jsonCaller, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'campaigns-e2e-admin-token-01';
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

for (const database of ['pglite', 'postgres'] as const) {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  describe.skipIf(skip)(`campaign execution on ${database}${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`, () => {
    it('sends a campaign due in two seconds to every customer and reports it', async () => {
      const env: Record<string, string> = { ADMIN_TOKEN, SCHEDULER_INTERVAL_MS: '200', SIMULATED_FAILURE_RATE: '0', DEMO_COMPANY: '0' };
      if (database === 'postgres') {
        const db = await freshDatabase('campaigns');
        if (!db) throw new Error('DATABASE_URL is needed');
        env.DATABASE_URL = db.url;
        stops.push(() => db.drop());
      }
      const server: ServerProcess = await startServerProcess(env);
      stops.push(() => server.stop());
      const call = jsonCaller(server.url);
      const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Runner', company_id: 'RUNNER' });
      const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
      for (const [i, name] of ['Asha', 'Ravi', 'Meera'].entries()) {
        await call('POST', '/api/order/addOrder', tok.token, {
          company_id: 'RUNNER',
          company_order_id: `O-${i}`,
          totalAmount: 10 * (i + 1),
          firstName: name,
          phoneNumber: `+91980000000${i}`,
          postalCode: '1',
          streetAddress1: 'x',
        });
      }
      const schedule = new Date(Date.now() + 2000).toISOString();
      const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
        name: 'soon',
        schedule_type: 'once',
        schedule,
        template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
      });
      expect(campaign.status).toBe('scheduled');
      await vi.waitFor(
        async () => expect((await call('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, tok.token)).data.status).toBe('completed'),
        // The run is due in 2 s; the wait ends once it has completed, and its limit is one load cannot reach.
        { timeout: 50_000, interval: 200 },
      );
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token);
      expect(report.messages).toMatchObject({ total: 3, sent: 3, failed: 0 });
      expect(report.campaigns.by_status.completed).toBe(1);
      expect(report.campaigns_detail[0]).toMatchObject({
        id: campaign.id,
        status: 'completed',
        runs: 1,
        last_run_at: new Date(schedule).toISOString(),
        messages: { total: 3 },
      });
      expect(report.orders).toEqual({ total: 3, amount: 60 });
    }, 90_000);
  });
}
