import { describe, expect, it } from 'vitest';
import { campaign, range, seedCompany, writer } from '../../test/store/conformance-fixtures.ts';
import { createMemoryStore } from '../store/memory/store.ts';
import { importCustomers } from './customers.ts';
import { buildReport, REPORT_DETAIL_LIMIT } from './reports.ts';

describe('buildReport', () => {
  it('is null for a company without customers', async () => {
    const store = createMemoryStore();
    const { uuid } = await seedCompany(store);
    expect(await buildReport(store, uuid, writer().ctx.now)).toBeNull();
  });

  it('counts every campaign and details the newest, newest first', async () => {
    const store = createMemoryStore();
    const w = writer();
    const { uuid } = await seedCompany(store);
    await importCustomers(store, w.ctx, uuid, [{ phoneNumber: '+15550000001', firstName: 'Ann' }]);
    for (const n of range(REPORT_DETAIL_LIMIT + 30)) await store.createCampaign(campaign(uuid, `c${n + 1}`, w.ctx.now));
    await store.updateCampaign(uuid, (await store.newestCampaigns(uuid, 1))[0]?.id as string, { status: 'completed' }, w.tick());
    const report = await buildReport(store, uuid, w.ctx.now);
    expect(report?.campaigns).toEqual({
      total: REPORT_DETAIL_LIMIT + 30,
      by_status: expect.objectContaining({ scheduled: REPORT_DETAIL_LIMIT + 29, completed: 1 }),
    });
    expect(report?.customers).toEqual({ total: 1 });
    const names = report?.campaigns_detail.map((c) => c.name);
    expect(names).toHaveLength(REPORT_DETAIL_LIMIT);
    expect(names?.slice(0, 2)).toEqual([`c${REPORT_DETAIL_LIMIT + 30}`, `c${REPORT_DETAIL_LIMIT + 29}`]);
    expect(names?.at(-1)).toBe('c31');
    expect(report?.campaigns_detail[0]).toMatchObject({ status: 'completed', runs: 0, last_run_at: null, messages: { total: 0 } });
  });
});
