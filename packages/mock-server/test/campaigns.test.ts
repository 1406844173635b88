/**
 * The reference server's campaign scenarios, run on the mock: its memory store, its manual clock
 * (`mock.clock.advance()`), its channel outcomes, and its API for customers, campaigns and the report.
 * The same scenarios run on the reference runtime on every store, so the two cannot drift apart.
 */
import { type CampaignWorld, describeCampaignScenarios } from '../../runtime/test/campaign-scenarios.ts';
import { setupMockApi } from '../src/node.ts';
import { mockCaller } from './helpers.ts';

describeCampaignScenarios('campaign scenarios on the mock', async (start, timeZone): Promise<CampaignWorld> => {
  const mock = setupMockApi({ clock: 'manual', seed: 'scenarios', company: { timezone: timeZone } });
  mock.clock.set(start);
  const call = mockCaller(mock);
  const q = `?uuid=${mock.company.uuid}`;
  return {
    async addCustomers(count) {
      const customers = Array.from({ length: count }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` }));
      await call('POST', `/api/v2/companies/${mock.company.uuid}/customers`, { customers }, mock.adminToken);
    },
    createCampaign: (campaign) => call('POST', `/agency/createCampaign${q}`, campaign),
    campaign: (id) => call('GET', `/agency/getCampaign/${id}${q}`),
    runUntil: (until) => mock.clock.advance(Math.max(0, Date.parse(until) - mock.clock.now().getTime())),
    sent: () => mock.messages().map((m) => ({ campaignId: m.campaignId, to: m.to, body: m.template.body, runKey: m.runKey })),
    failEveryMessage: () => mock.channel.outcome('*', 'failed'),
    reportedMessages: async () => (await call<{ messages: { total: number } }>('GET', `/agency/reportingCampaign${q}`)).messages.total,
    close: () => mock.close(),
  };
});
