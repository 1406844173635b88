/**
 * Every resource method sends its request through openapi-fetch's typed methods, called as
 * `ContractClient` (src/internal/api-client.ts): what a call names must be in the contract's `paths`.
 * A wrong path, method, path or query parameter, or body field, is a type error here, and so in the
 * resources. Checked by tsc (vitest typecheck), never run.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Campaign, CreateCampaignBody, EngageClient } from '../src/index.ts';
import { type ApiClient, type ContractClient, exact } from '../src/internal/api-client.ts';

declare const api: ContractClient;
declare const client: EngageClient;
declare const body: CreateCampaignBody;
const uuid = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

describe('calls through openapi-fetch, typed by the contract', () => {
  it('take the paths, parameters and bodies the contract has, and answer its types', async () => {
    const { data } = await api.GET('/agency/getCampaign/{id}', { params: { path: { id: 'cmp_1' }, query: { uuid } } });
    expectTypeOf(data?.data).toEqualTypeOf<Campaign | undefined>();
    await api.GET('/agency/getCampaignData', { params: { query: { uuid, page: 2, limit: 50 } } });
    await api.POST('/agency/createCampaign', { params: { query: { uuid } }, body });
    await api.PUT('/api/order/updateOrder/{orderId}', { params: { path: { orderId: 'ORD-1' } }, body: { company_id: 'ACME' } });
  });

  it('refuse a path, method, parameter or body the contract does not have', async () => {
    // @ts-expect-error no such path: it is /agency/getCampaign/{id}
    await api.GET('/agency/getCampaigns/{id}', { params: { path: { id: 'cmp_1' }, query: { uuid } } });
    // @ts-expect-error no such query parameter: getCampaignData takes uuid, page and limit
    await api.GET('/agency/getCampaignData', { params: { query: { uuid, pge: 2 } } });
    // @ts-expect-error no such path parameter: it is {id}
    await api.GET('/agency/getCampaign/{id}', { params: { path: { campaignId: 'cmp_1' }, query: { uuid } } });
    // @ts-expect-error getCampaign is a GET
    await api.POST('/agency/getCampaign/{id}', { params: { path: { id: 'cmp_1' }, query: { uuid } } });
    // @ts-expect-error no such body field: it is `name`
    await api.POST('/agency/createCampaign', { params: { query: { uuid } }, body: { ...body, nam: 'spring' } });
    // @ts-expect-error the uuid query parameter is required
    await api.GET('/agency/reportingCampaign', { params: { query: {} } });
  });

  it('are the openapi-fetch clients of client.api, which take any extra key (openapi-fetch infers its init)', async () => {
    expectTypeOf(client.api.agency).toEqualTypeOf<ApiClient>();
    expectTypeOf(exact(client.api.agency)).toEqualTypeOf<ContractClient>();
    await client.api.agency.GET('/agency/getCampaignData', { params: { query: { uuid, pge: 2 } } });
    // @ts-expect-error openapi-fetch's own types still refuse an unknown path
    await client.api.agency.GET('/agency/getCampaigns/{id}');
  });
});
