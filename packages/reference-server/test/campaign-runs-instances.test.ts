/** Campaign runs shared by instances: two stores on one PostgreSQL database, each with its own scheduler. */
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../../runtime/src/campaigns/scheduler.ts';
import { createManualClock } from '../../runtime/src/clock.ts';
import { importCustomers } from '../../runtime/src/domain/customers.ts';
import { createSeededIds } from '../../runtime/src/ids.ts';
import type { CompanyRecord } from '../../runtime/src/store/types.ts';
import { recordingChannel } from '../../runtime/test/recording-channel.ts';
import { openSqlStore } from '../src/store/index.ts';
import { freshDatabase } from './helpers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

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
    await importCustomers(
      s1,
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
