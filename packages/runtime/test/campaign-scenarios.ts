/**
 * The campaign rules as scenarios any runtime must pass with a clock the test moves: the reference
 * runtime on every store (domain/campaigns.test.ts) and the mock (mock-server/test/campaigns.test.ts),
 * so the mock and the server cannot drift apart. A driver gives each scenario a fresh world.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NewCampaign } from '../src/domain/campaigns.ts';

/** One company on a clock the test moves, and what a scenario does with it. */
export interface CampaignWorld {
  /** Adds `n` customers: first names C0, C1..., phones +14155550000, +14155550001... */
  addCustomers(n: number): Promise<void>;
  createCampaign(campaign: NewCampaign): Promise<{ id: string }>;
  campaign(id: string): Promise<{ status: string; next_run_at: string | null }>;
  /** Moves the clock to `until`, running what falls due on the way. */
  runUntil(until: string): Promise<void>;
  /** Every message sent so far. */
  sent(): { campaignId: string; to: string; body: string[]; runKey: string }[];
  /** From now on, every message fails. */
  failEveryMessage(): void;
  /** Messages the company's report counts. */
  reportedMessages(): Promise<number>;
  close(): Promise<void>;
}

/** Makes a world: a company in `timeZone` whose clock starts at `start`. */
export type CampaignDriver = (start: string, timeZone: string) => Promise<CampaignWorld>;

const template = {
  template_name: 'welcome',
  language: 'en',
  header_variable: [],
  body_variable: ['first_name'],
  variables: { first_name: '{{customer.firstName}}' },
};

/** Registers the campaign scenarios under `describe(name)`. */
export function describeCampaignScenarios(name: string, driver: CampaignDriver): void {
  const worlds: CampaignWorld[] = [];
  afterEach(async () => {
    for (const w of worlds.splice(0)) await w.close();
  });
  const world = async (start: string, timeZone = 'UTC') => {
    const w = await driver(start, timeZone);
    worlds.push(w);
    return w;
  };

  describe(name, () => {
    it('runs a once campaign at its time: one rendered message per customer, completed, counted in the report', async () => {
      const w = await world('2026-01-05T08:00:00.000Z');
      await w.addCustomers(5);
      const { id } = await w.createCampaign({ name: 'once', schedule_type: 'once', schedule: '2026-01-05T09:00:00.000Z', template_payload: template });
      await w.runUntil('2026-01-05T08:59:59.999Z');
      expect(w.sent()).toEqual([]);
      expect(await w.campaign(id)).toMatchObject({ status: 'scheduled', next_run_at: '2026-01-05T09:00:00.000Z' });
      await w.runUntil('2026-01-05T09:00:00.000Z');
      expect(
        w
          .sent()
          .map((m) => m.body[0])
          .sort(),
      ).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
      expect(await w.campaign(id)).toMatchObject({ status: 'completed', next_run_at: null });
      expect(await w.reportedMessages()).toBe(5);
      await w.runUntil('2026-01-06T09:00:00.000Z');
      expect(w.sent()).toHaveLength(5);
    });

    it('runs a recurring campaign at each listed time in the company’s time zone, across a DST change, and stays scheduled', async () => {
      // New York moves its clocks forward on Sunday 8 March 2026: 09:00 is 14:00 UTC before, 13:00 UTC after.
      const w = await world('2026-02-27T00:00:00.000Z', 'America/New_York');
      await w.addCustomers(2);
      const { id } = await w.createCampaign({
        name: 'sundays',
        schedule_type: 'recurring',
        schedule: '2026-02-27T00:00:00.000Z',
        days: { sunday: ['09:00'] },
        template_payload: template,
      });
      await w.runUntil('2026-03-09T00:00:00.000Z');
      expect([...new Set(w.sent().map((m) => m.runKey))]).toEqual(['2026-03-01T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
      expect(w.sent()).toHaveLength(4);
      expect(await w.campaign(id)).toMatchObject({ status: 'scheduled', next_run_at: '2026-03-15T13:00:00.000Z' });
    });

    it('marks a once campaign failed when every message failed', async () => {
      const w = await world('2026-01-05T08:00:00.000Z');
      await w.addCustomers(3);
      w.failEveryMessage();
      const { id } = await w.createCampaign({ name: 'doomed', schedule_type: 'once', schedule: '2026-01-05T08:30:00.000Z', template_payload: template });
      await w.runUntil('2026-01-05T09:00:00.000Z');
      expect(w.sent()).toHaveLength(3);
      expect(await w.campaign(id)).toMatchObject({ status: 'failed' });
    });

    it('runs two campaigns in due order within one move of the clock', async () => {
      const w = await world('2026-01-05T08:00:00.000Z');
      await w.addCustomers(1);
      const later = await w.createCampaign({ name: 'later', schedule_type: 'once', schedule: '2026-01-05T11:00:00.000Z', template_payload: template });
      const sooner = await w.createCampaign({ name: 'sooner', schedule_type: 'once', schedule: '2026-01-05T10:00:00.000Z', template_payload: template });
      await w.runUntil('2026-01-05T12:00:00.000Z');
      expect(w.sent().map((m) => [m.campaignId, m.runKey])).toEqual([
        [sooner.id, '2026-01-05T10:00:00.000Z'],
        [later.id, '2026-01-05T11:00:00.000Z'],
      ]);
    });
  });
}
