/**
 * The mock's channel, opted in to report as WhatsApp does (`channel.statusDelays`): messages are
 * answered `sent`, and their delivered, read and failed statuses arrive as the mock's clock passes them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type MockApi, setupMockApi } from '../src/node.ts';
import { mockCaller } from './helpers.ts';

let mock: MockApi | undefined;
afterEach(() => mock?.close());

describe('the mock channel with statusDelays', () => {
  it('reports sent at the run, then delivered, read and failed as the clock moves', async () => {
    const m = setupMockApi({ clock: 'manual', seed: 'statuses', channel: { statusDelays: { deliveredMs: 2_000, readMs: 60_000 } } });
    mock = m;
    const call = mockCaller(m);
    const customers = Array.from({ length: 40 }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` }));
    await call('POST', `/api/v2/companies/${m.company.uuid}/customers`, { customers }, m.adminToken);
    m.channel.outcome('+14155550000', 'failed', { reason: 'not on WhatsApp' });
    m.channel.outcome('+14155550001', 'read');
    const at = new Date(m.clock.now().getTime() + 1_000).toISOString();
    await call('POST', `/agency/createCampaign?uuid=${m.company.uuid}`, {
      name: 'later',
      schedule_type: 'once',
      schedule: at,
      template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
    });
    const report = () =>
      call<{ messages: { total: number; sent: number; delivered: number; read: number; failed: number } }>(
        'GET',
        `/agency/reportingCampaign?uuid=${m.company.uuid}`,
      );

    await m.clock.advance(1_000);
    expect((await report()).messages).toEqual({ total: 40, sent: 40, delivered: 0, read: 0, failed: 0 });
    expect(new Set(m.messages().map((x) => x.status))).toEqual(new Set(['sent']));

    await m.clock.advance(2_000);
    const delivered = (await report()).messages;
    expect(delivered.failed).toBeGreaterThanOrEqual(1);
    expect(delivered.delivered).toBeGreaterThan(20);
    expect(delivered.read).toBe(0);
    expect(m.messages().find((x) => x.to === '+14155550000')).toMatchObject({ status: 'failed', error: 'not on WhatsApp' });

    await m.clock.advance(60_000);
    const read = (await report()).messages;
    expect(read.read).toBeGreaterThan(10);
    expect(read.delivered).toBe(delivered.delivered);
    expect(m.messages().find((x) => x.to === '+14155550001')?.status).toBe('read');
  });

  it('refuses a delay that is not a whole number of milliseconds', () => {
    expect(() => setupMockApi({ channel: { statusDelays: { readMs: -1 } } })).toThrow(/channel\.statusDelays\.readMs must be a whole number/);
  });
});
