import { describe, expect, it } from 'vitest';
import { fakeFetch, json } from '../test/helpers/fake-fetch.ts';
import { createClient } from './create-client.ts';
import { EngageError } from './errors.ts';
import { ResponseValidationError, validateResponse } from './validate.ts';

const campaign = {
  id: 'cmp_1',
  uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61',
  name: 'spring',
  status: 'scheduled',
  pause_reason: null,
  failure_reason: null,
  schedule_type: 'once',
  schedule: '2030-01-15T10:00:00.000Z',
  days: null,
  template_payload: { template_name: 'welcome', language: 'en', header_variable: [], body_variable: [], variables: {} },
  startDate: '2030-01-15',
  endDate: null,
  next_run_at: '2030-01-15T10:00:00.000Z',
  created_at: '2026-01-05T08:00:00.000Z',
  updated_at: '2026-01-05T08:00:00.000Z',
};
const envelope = (data: unknown) => ({ success: true, message: 'Successfully fetched campaign data.', data });

describe('validateResponse', () => {
  it('passes an answer that matches the contract', () => {
    expect(() => validateResponse({ operationId: 'getCampaign', status: 200, body: envelope(campaign) })).not.toThrow();
  });

  it('names every field of an answer that breaks it', () => {
    let err: unknown;
    try {
      validateResponse({ operationId: 'getCampaign', status: 200, body: envelope({ ...campaign, status: 'bogus', startDate: 5 }) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(EngageError.is(err)).toBe(true);
    const v = err as ResponseValidationError;
    expect(v.issues.map((i) => i.path).sort()).toEqual(['data.startDate', 'data.status']);
    expect(v).toMatchObject({ operationId: 'getCampaign', status: 200 });
    expect(v.message).toMatch(/^The 200 answer of getCampaign does not match the contract \(data\.status: .*\)\. Is the server a different version/);
  });

  it('refuses a status the contract does not list for the operation', () => {
    expect(() => validateResponse({ operationId: 'getCampaign', status: 201, body: envelope(campaign) })).toThrow(/no 201 answer for getCampaign/);
  });

  it('rejects a client call whose answer breaks the contract', async () => {
    const f = fakeFetch(() => json(200, envelope({ ...campaign, id: 42 })));
    const client = createClient({ baseUrl: 'http://api.test', token: 't', uuid: campaign.uuid, fetch: f.fetch, validateResponse });
    await expect(client.campaigns.get('cmp_1')).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
