/**
 * A campaign's controls (pause, resume, cancel): one implementation, taking the company uuid first. The
 * admin client offers it as is (`companies.campaigns`); the company client binds its own uuid (`campaigns.pause`, ...).
 */
import type { APIPromise } from './api-promise.ts';
import type { ContractClient } from './internal/api-client.ts';
import { one, required } from './internal/calls.ts';
import type { RequestOptions } from './internal/request.ts';
import type { Transport } from './internal/setup.ts';
import type { Campaign } from './types.ts';

/** What a campaign control does. */
export type CampaignAction = 'pause' | 'resume' | 'cancel';

const paths = {
  pause: '/api/v2/companies/{uuid}/campaigns/{id}/pause',
  resume: '/api/v2/companies/{uuid}/campaigns/{id}/resume',
  cancel: '/api/v2/companies/{uuid}/campaigns/{id}/cancel',
} as const;

/** `control(action, uuid, id, options)`: the company's campaign `id` paused, resumed or cancelled; `where` names the method in errors (`campaigns`). */
export function campaignControl(t: Transport, api: ContractClient, where: string) {
  return (action: CampaignAction, uuid: string, id: string, options?: RequestOptions): APIPromise<Campaign> =>
    one(t, `${action}Campaign`, options, (init) =>
      api.POST(paths[action], {
        ...init,
        params: { path: { uuid: required(`${where}.${action}`, 'a company uuid', uuid), id: required(`${where}.${action}`, 'a campaign id', id) } },
      }),
    );
}
