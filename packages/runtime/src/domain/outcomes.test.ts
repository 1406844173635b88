/** Domain functions check their own rules and say what came of a write, for the route to map. */
import { describe, expect, it } from 'vitest';
import { company, writer } from '../../test/store/conformance-fixtures.ts';
import { createMemoryStore } from '../store/memory/store.ts';
import { createCampaign, type NewCampaign } from './campaigns.ts';
import { createCompany } from './companies.ts';
import { createEndpoint, registerEndpoint, updateEndpoint } from './webhook-endpoints.ts';

const publicOnly = { allowPrivate: false };
const campaign: NewCampaign = {
  name: 'launch',
  schedule_type: 'once',
  schedule: '2026-01-05T09:00:00.000Z',
  template_payload: { template_name: 'hello', language: 'en', header_variable: [], body_variable: [], variables: {} },
};

async function withCompany() {
  const store = createMemoryStore();
  const co = company(1);
  await store.createCompany(co);
  return { store, co, w: writer() };
}

describe('createEndpoint', () => {
  it('refuses a URL that may not receive webhooks, and writes nothing', async () => {
    const { store, co, w } = await withCompany();
    const made = await createEndpoint(store, w.ctx, co, { url: 'http://127.0.0.1:9000/hook' }, publicOnly);
    expect(made).toMatchObject({ outcome: 'target_refused', problem: expect.stringContaining('must be a public address') });
    expect((await store.listEndpoints(co.uuid, { page: 1, limit: 10 })).total).toBe(0);
  });

  it('asks DNS about a host name, and refuses one that resolves to a private address', async () => {
    const { store, co, w } = await withCompany();
    const resolve = async () => ['10.0.0.7'];
    const made = await createEndpoint(store, w.ctx, co, { url: 'https://hooks.example.com/in' }, { allowPrivate: false, resolve });
    expect(made).toMatchObject({ outcome: 'target_refused', problem: expect.stringContaining('resolves to 10.0.0.7') });
  });

  it('holds the endpoint in the memory store when it returns, given a URL that needs no DNS (the mock makes its own so)', async () => {
    const { store, co, w } = await withCompany();
    const made = createEndpoint(store, w.ctx, co, { url: 'http://localhost:4010/hook' }, { allowPrivate: true });
    // Asked before `made` settles: the write happened within the call.
    const listed = store.listEndpoints(co.uuid, { page: 1, limit: 10 });
    expect(await made).toMatchObject({ outcome: 'created', endpoint: { url: 'http://localhost:4010/hook' } });
    expect((await listed).total).toBe(1);
  });
});

describe('registerEndpoint', () => {
  it('judges the URL before the cap: a refused URL is told as such even when the company is full', async () => {
    const { store, co, w } = await withCompany();
    expect(await registerEndpoint(store, w.ctx, co, { url: 'ftp://example.com/' }, publicOnly, 0)).toEqual({
      outcome: 'target_refused',
      problem: 'must be an http(s) URL',
    });
    expect(await registerEndpoint(store, w.ctx, co, { url: 'https://93.184.216.34/' }, publicOnly, 0)).toEqual({ outcome: 'too_many_endpoints', max: 0 });
  });
});

describe('updateEndpoint', () => {
  it('refuses a new URL that may not receive webhooks and keeps the old one; null for an unknown endpoint', async () => {
    const { store, co, w } = await withCompany();
    const made = await createEndpoint(store, w.ctx, co, { url: 'https://93.184.216.34/' }, publicOnly);
    if (made.outcome !== 'created') throw new Error(made.outcome);
    const id = made.endpoint.id;
    expect(await updateEndpoint(store, w.ctx, co, id, { url: 'http://[::1]/' }, publicOnly)).toMatchObject({ outcome: 'target_refused' });
    expect((await store.getEndpoint(co.uuid, id))?.url).toBe('https://93.184.216.34/');
    expect(await updateEndpoint(store, w.ctx, co, id, { description: 'kept' }, publicOnly)).toMatchObject({
      outcome: 'updated',
      endpoint: { description: 'kept' },
    });
    expect(await updateEndpoint(store, w.ctx, co, 'wh_none', { description: 'x' }, publicOnly)).toBeNull();
  });
});

describe('createCampaign', () => {
  it('refuses a schedule past 9999 in UTC, and a name the company has taken', async () => {
    const { store, co, w } = await withCompany();
    const late = await createCampaign(store, w.ctx, co, { ...campaign, schedule: '9999-12-31T23:00:00-12:00' });
    expect(late).toMatchObject({ outcome: 'schedule_refused', problem: expect.stringContaining('9999') });
    expect(await createCampaign(store, w.ctx, co, campaign)).toMatchObject({ outcome: 'created', campaign: { name: 'launch', status: 'scheduled' } });
    expect(await createCampaign(store, w.ctx, co, campaign)).toEqual({ outcome: 'name_taken' });
  });
});

describe('createCompany', () => {
  it('says when another company holds the company_id', async () => {
    const store = createMemoryStore();
    const ids = { uuid: () => crypto.randomUUID() };
    const made = await createCompany(store, writer().ctx, { name: 'A', company_id: 'ACME', timezone: 'UTC' }, ids);
    expect(made).toMatchObject({ outcome: 'created', company: { company_id: 'ACME' } });
    expect(await createCompany(store, writer().ctx, { name: 'B', company_id: 'ACME', timezone: 'UTC' }, ids)).toEqual({ outcome: 'company_id_taken' });
  });
});
