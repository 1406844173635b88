/** A server that sends through WhatsApp takes a campaign only on a template the company can send, and lists its templates. */
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, jsonCaller, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'templates-e2e-admin-token-01';
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const database = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`templates on a server with CHANNEL=whatsapp (${database})`, () => {
  it('refuses a campaign on a template never submitted or failed, with 400 template_not_usable, and takes one submitted', async () => {
    // No message is sent here: the Graph API's URL is a closed port.
    const env: Record<string, string> = {
      ADMIN_TOKEN,
      DEMO_COMPANY: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      CHANNEL: 'whatsapp',
      WHATSAPP_API_URL: 'http://127.0.0.1:9',
      WHATSAPP_ACCESS_TOKEN: 'EAAG-templates-test',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: 'templates-test-app-secret',
      WHATSAPP_VERIFY_TOKEN: 'templates-test-verify-token',
    };
    const db = await freshDatabase('templates');
    if (db) {
      env.DATABASE_URL = db.url;
      stops.push(() => db.drop());
    }
    const server: ServerProcess = await startServerProcess(env);
    stops.push(() => server.stop());
    const call = jsonCaller(server.url);
    const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Sender' });
    const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, { scopes: ['agency'] });
    const campaign = (name: string, template_name: string) => ({
      name,
      schedule_type: 'once',
      schedule: '2030-01-15T10:00:00Z',
      template_payload: { template_name, body_variable: [], variables: {} },
    });
    const create = (name: string, template: string) =>
      fetch(`${server.url}/agency/createCampaign?uuid=${company.uuid}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tok.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(campaign(name, template)),
      });

    const never = await create('first', 'welcome');
    expect(never.status).toBe(400);
    expect(await never.json()).toMatchObject({
      code: 'template_not_usable',
      message: expect.stringContaining('"welcome" was never submitted'),
      issues: [{ path: 'template_payload.template_name' }],
    });

    await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'welcome', phone_number: '6363978748' });
    const failed = await create('second', 'welcome');
    expect(failed.status).toBe(400);
    expect(await failed.json()).toMatchObject({ code: 'template_not_usable', message: expect.stringContaining('"welcome" is failed') });

    await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'welcome', phone_number: '+14155550100', wam_id: 'wam-1' });
    const made = await create('third', 'welcome');
    expect(made.status).toBe(201);

    const listed = await call('GET', `/api/v2/companies/${company.uuid}/templates?limit=1&page=2`, tok.token);
    expect(listed.data).toEqual([expect.objectContaining({ template_name: 'welcome', phone_number: '+14155550100', status: 'submitted', reason: null })]);
    expect(listed.pagination).toEqual({ total: 2, page: 2, limit: 1, totalPages: 2 });
    const byAdmin = await call('GET', `/api/v2/companies/${company.uuid}/templates`, ADMIN_TOKEN);
    expect(byAdmin.data.map((t: { status: string }) => t.status)).toEqual(['failed', 'submitted']);
  });
});
