/** The rate limit counts by company (and the admin token apart), not by the token's text. */
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createManualClock } from '../src/clock.ts';
import { hashToken } from '../src/http/auth.ts';
import { createSeededIds } from '../src/ids.ts';
import { createMemoryStore } from '../src/store/memory/store.ts';

const ADMIN_TOKEN = 'rate-limit-admin-token-0123456789';

/** The app on the memory store with a limit of `perMinute`, on a clock that stands still. */
function limitedApp(perMinute: number) {
  const store = createMemoryStore();
  const config = { jwtSecret: 'rate-limit-jwt-secret-0123456789abcdef', adminTokenHash: hashToken(ADMIN_TOKEN), webhookAllowPrivate: true };
  const clock = createManualClock(new Date('2026-01-05T08:00:00.000Z'));
  // One app without a limit sets the companies up; the limited one shares its store.
  const setup = createApp({ store, clock, ids: createSeededIds(1), config: { ...config, rateLimitPerMinute: 0 } });
  const app = createApp({ store, clock, ids: createSeededIds(2), config: { ...config, rateLimitPerMinute: perMinute } });
  const asAdmin = async (path: string, body: unknown) => {
    const res = await setup.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()).data;
  };
  const company = async (name: string) => {
    const { uuid } = await asAdmin('/api/v2/companies', { name });
    const token = async () => (await asAdmin(`/api/v2/companies/${uuid}/tokens`, {})).token as string;
    return { uuid: uuid as string, tokens: [await token(), await token()] };
  };
  const list = async (uuid: string, token: string) =>
    (await app.request(`/agency/getCampaignData?uuid=${uuid}`, { headers: { authorization: `Bearer ${token}` } })).status;
  const listCompanies = async () => (await app.request('/api/v2/companies', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status;
  return { company, list, listCompanies };
}

describe('the rate limit', () => {
  it('gives two tokens of one company one bucket, another company its own, and the admin token its own', async () => {
    const { company, list, listCompanies } = limitedApp(2);
    const a = await company('Alpha');
    const b = await company('Beta');
    const [first, second] = a.tokens as [string, string];
    expect(first).not.toBe(second);
    expect([await list(a.uuid, first), await list(a.uuid, second), await list(a.uuid, second), await list(a.uuid, first)]).toEqual([200, 200, 429, 429]);
    expect(await list(b.uuid, b.tokens[0] as string)).toBe(200);
    expect([await listCompanies(), await listCompanies(), await listCompanies()]).toEqual([200, 200, 429]);
  });
});
