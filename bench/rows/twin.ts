import { type MockData, setupMockApi } from '@engagekit/mock-server/node';
import { atMost, type Bench, median, row, sideBySide } from '../lib.ts';

const ADVANCE_LIMIT_MS = 50;

/** `mock.clock.advance()` running a campaign to 1,000 customers in process, against a 50 ms limit. */
export const mockCampaignAdvance: Bench = {
  id: 'mock.campaign.advance-1k',
  async run() {
    const mock = setupMockApi({ clock: 'manual', seed: 1 });
    try {
      mock.clock.set('2026-03-01T08:00:00Z');
      const imported = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          customers: Array.from({ length: 1000 }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` })),
        }),
      });
      if (imported.status !== 200) throw new Error(`import answered ${imported.status}`);
      const before = mock.snapshot();
      const times: number[] = [];
      for (let round = 0; round < 12; round++) {
        await mock.restore(before);
        const created = await mock.fetch(`/agency/createCampaign?uuid=${mock.company.uuid}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'thousand',
            schedule_type: 'once',
            schedule: '2026-03-01T09:00:00Z',
            template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
          }),
        });
        if (created.status !== 201) throw new Error(`createCampaign answered ${created.status}`);
        const t0 = performance.now();
        await mock.clock.advance('1h');
        times.push(performance.now() - t0);
        if (mock.messages().length !== 1000) throw new Error(`the run sent ${mock.messages().length} messages`);
      }
      const ours = Math.round(median(times.slice(2)) * 10) / 10;
      return row({
        id: 'mock.campaign.advance-1k',
        metric: 'mock.clock.advance() running a campaign to 1,000 customers, in process',
        ours,
        peer: ADVANCE_LIMIT_MS,
        unit: 'ms',
        better: 'lower',
        goal: atMost(1, `limit ${ADVANCE_LIMIT_MS} ms`),
      });
    } finally {
      await mock.close();
    }
  },
};

/** `restore()` of a snapshot of a company with 1,000 orders, against `reset()` loading the same orders again. */
export const mockRestoreVsReset: Bench = {
  id: 'mock.restore.vs-reset',
  async run() {
    const data: MockData = {
      orders: Array.from({ length: 1000 }, (_, i) => ({
        company_order_id: `ORD-${i}`,
        totalAmount: 10 + i,
        firstName: `C${i}`,
        phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
        postalCode: '94107',
        streetAddress1: '1 Market St',
      })),
    };
    const mock = setupMockApi({ seed: 1, data });
    try {
      await mock.ready;
      const snap = mock.snapshot();
      const timed = async (f: () => Promise<void>) => {
        const t0 = performance.now();
        await f();
        return performance.now() - t0;
      };
      const { ours, peer } = await sideBySide(
        9,
        () => timed(() => mock.restore(snap)),
        () => timed(() => mock.reset()),
      );
      if ((await mock.state()).orders.length !== 1000) throw new Error('the mock lost orders');
      return row({
        id: 'mock.restore.vs-reset',
        metric: 'restore() of a snapshot with 1,000 orders vs reset() loading them again',
        ours: Math.round(ours * 100) / 100,
        peer: Math.round(peer * 100) / 100,
        unit: 'ms',
        better: 'lower',
        goal: atMost(0.1),
      });
    } finally {
      await mock.close();
    }
  },
};

export const benches: Bench[] = [mockCampaignAdvance, mockRestoreVsReset];
