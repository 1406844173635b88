/**
 * Campaign runs shared by instances on one PostgreSQL database: two stores, each with its own
 * scheduler and leases, as two server processes have. What is asserted is who claims what and what a
 * take-over leaves, never how long anything takes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../../runtime/src/campaigns/scheduler.ts';
import { createManualClock } from '../../runtime/src/clock.ts';
import type { OutboundMessage } from '../../runtime/src/domain/channel.ts';
import { importCustomers } from '../../runtime/src/domain/customers.ts';
import { createSeededIds } from '../../runtime/src/ids.ts';
import { createLeases } from '../../runtime/src/leases.ts';
import type { Store } from '../../runtime/src/store/ports.ts';
import type { CampaignRecord, CompanyRecord } from '../../runtime/src/store/types.ts';
import { recordingChannel, togetherChannel } from '../../runtime/test/recording-channel.ts';
import { openSqlStore } from '../src/store/index.ts';
import { freshDatabase } from './helpers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DUE = '2026-01-05T09:00:00.000Z';

/** Two stores on one new database (two instances), a company with `customers` customers, and `campaigns` campaigns due at DUE. */
async function twoInstances(customers: number, campaigns: number) {
  const db = await freshDatabase('runs');
  if (!db) throw new Error('DATABASE_URL is needed');
  const s1 = await openSqlStore({ databaseUrl: db.url });
  const s2 = await openSqlStore({ databaseUrl: db.url });
  cleanups.push(
    () => db.drop(),
    () => s1.close(),
    () => s2.close(),
  );
  const clock = createManualClock(new Date(DUE));
  const ids = createSeededIds('pg-runs');
  const company: CompanyRecord = { uuid: ids.uuid(), company_id: 'RUNPG', name: 'Runner', timezone: 'UTC', created_at: DUE };
  await s1.createCompany(company);
  const rows = Array.from({ length: customers }, (_, i) => ({ phoneNumber: `+1415556${String(i).padStart(4, '0')}`, firstName: `P${i}` }));
  await importCustomers(s1, { newId: ids.newId, now: DUE }, company.uuid, rows);
  const made: CampaignRecord[] = [];
  for (let i = 0; i < campaigns; i++) {
    made.push(
      await s1.createCampaign({
        id: ids.newId('cmp'),
        company_uuid: company.uuid,
        name: `c${i}`,
        status: 'scheduled',
        pause_reason: null,
        failure_reason: null,
        schedule_type: 'once',
        schedule: DUE,
        days: null,
        template_payload: { template_name: 'welcome', language: 'en', header_variable: [], body_variable: [], variables: {} },
        endDate: null,
        next_run_at: DUE,
        created_at: DUE,
        updated_at: DUE,
      }),
    );
  }
  return { s1, s2, clock, company, campaigns: made };
}

/** An instance: a scheduler on `store` with leases of its own, `chunkSize` customers a chunk, `concurrency` chunks at once. */
function instance(
  store: Store,
  clock: ReturnType<typeof createManualClock>,
  name: string,
  chunkSize: number,
  concurrency: number,
  channel = recordingChannel(),
) {
  const leases = createLeases({ store, clock });
  const scheduler = createScheduler({ store, channel, clock, ids: createSeededIds(name), leases, chunkSize, concurrency });
  return { channel, leases, scheduler };
}

/**
 * Two recording channels that hold every send until each has been given one (or 20 s have passed, for a
 * failure to show as one): both instances then hold a chunk of their own, whichever of their first
 * queries load lets through first.
 */
function meetingChannels() {
  const channels = [recordingChannel(), recordingChannel()] as const;
  let meet: () => void = () => {};
  const met = new Promise<void>((resolve) => {
    meet = resolve;
    setTimeout(resolve, 20_000).unref();
  });
  const held = (channel: (typeof channels)[number]) => ({
    ...channel,
    async send(m: OutboundMessage) {
      const answer = channel.send(m);
      if (channels.every((c) => c.sent.length > 0)) meet();
      await met;
      return answer;
    },
  });
  return [held(channels[0]), held(channels[1])] as const;
}

describe.skipIf(!process.env.DATABASE_URL)(`campaign runs on PostgreSQL${process.env.DATABASE_URL ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
  it('runs each due time once across two instances: every customer gets one message of each campaign', async () => {
    const { s1, s2, clock, company } = await twoInstances(50, 4);
    const a = instance(s1, clock, 'a', 7, 4);
    const b = instance(s2, clock, 'b', 7, 4);
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    const keys = [...a.channel.sent, ...b.channel.sent].map((m) => m.key);
    expect(keys).toHaveLength(200);
    expect(new Set(keys).size).toBe(200);
    expect(await s1.countCampaignsByStatus(company.uuid)).toEqual({ completed: 4 });
  });

  it('sends one big campaign from both instances, each running chunks of it', async () => {
    const { s1, s2, clock, company } = await twoInstances(60, 1);
    const [channelA, channelB] = meetingChannels();
    const a = instance(s1, clock, 'a', 10, 1, channelA);
    const b = instance(s2, clock, 'b', 10, 1, channelB);
    // The run started (by either), both instances find its chunks on their next tick.
    await s1.startDueRuns({ now: DUE, limit: 10, chunkSize: 10, newId: createSeededIds('start').newId });
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect(a.channel.sent.length).toBeGreaterThan(0);
    expect(b.channel.sent.length).toBeGreaterThan(0);
    expect(new Set([...a.channel.sent, ...b.channel.sent].map((m) => m.to)).size).toBe(60);
    expect(a.channel.sent.length + b.channel.sent.length).toBe(60);
    expect(await s1.countCampaignsByStatus(company.uuid)).toEqual({ completed: 1 });
  });

  it('starts campaigns due together together: an instance’s first chunks are one of each, in flight at once', async () => {
    const { s1, clock, company } = await twoInstances(20, 2);
    const channel = togetherChannel(2);
    const scheduler = createScheduler({
      store: s1,
      channel,
      clock,
      ids: createSeededIds('a'),
      leases: createLeases({ store: s1, clock }),
      chunkSize: 5,
      concurrency: 2,
    });
    await scheduler.tick();
    expect(channel.together()).toBe(true);
    expect(await s1.countCampaignsByStatus(company.uuid)).toEqual({ completed: 2 });
  });

  it('takes over the chunks of an instance that stopped renewing its leases, once they run out, and no sooner', async () => {
    const { s1, s2, clock, company, campaigns } = await twoInstances(30, 1);
    const dead = createLeases({ store: s1, clock });
    // The dead instance started the run and claimed two of its three chunks, then died before sending.
    await s1.startDueRuns({ now: DUE, limit: 10, chunkSize: 10, newId: createSeededIds('dead').newId });
    expect(await s1.claimChunks({ now: DUE, leaseUntil: dead.until(), claimToken: dead.claimToken, limit: 2 })).toHaveLength(2);
    const b = instance(s2, clock, 'b', 10, 4);
    expect(await b.scheduler.tick()).toBe(1);
    expect(b.channel.sent).toHaveLength(10);
    clock.advance(10_001);
    expect(await b.scheduler.tick()).toBe(2);
    expect(new Set(b.channel.sent.map((m) => m.to)).size).toBe(30);
    expect(await s2.getCampaign(company.uuid, (campaigns[0] as CampaignRecord).id)).toMatchObject({ status: 'completed' });
  });
});
