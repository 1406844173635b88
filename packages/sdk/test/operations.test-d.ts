/**
 * Every operation of the contract has a client method: the table below maps each operationId of the
 * generated `operations` to the method that calls it, and the method must resolve to what the operation
 * answers. An operation added to the contract without a method (or a method left resolving to the wrong
 * type) fails `typecheck`. Checked by tsc (vitest typecheck), never run.
 */
import { expectTypeOf, it } from 'vitest';
import type { EngageAdminClient } from '../src/admin.ts';
import type { APIPromise, EngageClient, operations, Page, PagePromise } from '../src/index.ts';
import type { OperationId } from '../src/types.ts';
import type { WebhookEvent } from '../src/webhooks.ts';

declare const client: EngageClient;
declare const admin: EngageAdminClient;

/** The JSON body of an operation's success answer (200, 201 or 202), or `never` when it has none. */
type SuccessBody<Op extends OperationId> = {
  [S in keyof operations[Op]['responses']]: S extends 200 | 201 | 202
    ? operations[Op]['responses'][S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never;
}[keyof operations[Op]['responses']];

/**
 * What the method of an operation returns: a list for a `data` array, the `data` itself otherwise. An
 * operation engagekit sends rather than answers (a webhook) is received with `webhooks.unwrap`.
 */
type MethodFor<Op extends OperationId> = [SuccessBody<Op>] extends [never]
  ? (...args: never[]) => Promise<WebhookEvent>
  : SuccessBody<Op> extends { data: (infer Item)[] }
    ? (...args: never[]) => PagePromise<Item, Page<Item>>
    : SuccessBody<Op> extends { data: infer D }
      ? (...args: never[]) => APIPromise<D>
      : never;

const methods = {
  // Agency operations, company client.
  sync: client.agency.sync,
  submitTemplate: client.templates.submit,
  listTemplates: client.templates.list,
  createCampaign: client.campaigns.create,
  getCampaignData: client.campaigns.list,
  getCampaign: client.campaigns.get,
  pauseCampaign: client.campaigns.pause,
  resumeCampaign: client.campaigns.resume,
  cancelCampaign: client.campaigns.cancel,
  getCustomers: client.customers.list,
  reportingCampaign: client.reports.get,
  // Order operations, company client. PATCH and POST are the same update under other methods.
  addOrder: client.orders.add,
  updateOrder: client.orders.update,
  updateOrderWithPatch: client.orders.update,
  updateOrderWithPost: client.orders.update,
  // Webhook endpoints: the company client for its own, the admin client for any company.
  createWebhook: client.webhookEndpoints.create,
  listWebhooks: client.webhookEndpoints.list,
  getWebhook: client.webhookEndpoints.get,
  updateWebhook: client.webhookEndpoints.update,
  deleteWebhook: client.webhookEndpoints.delete,
  rotateWebhookSecret: client.webhookEndpoints.rotateSecret,
  sendTestEvent: client.webhookEndpoints.sendTest,
  listWebhookDeliveries: client.webhookEndpoints.deliveries,
  redeliverWebhookDelivery: client.webhookEndpoints.redeliver,
  // Admin operations, admin client.
  getHealth: admin.health,
  getLiveness: admin.liveness,
  getReadiness: admin.readiness,
  createCompany: admin.companies.create,
  listCompanies: admin.companies.list,
  getCompany: admin.companies.get,
  createToken: admin.companies.tokens.create,
  listTokens: admin.companies.tokens.list,
  revokeToken: admin.companies.tokens.revoke,
  revokeCompanyTokens: admin.companies.tokens.revokeAll,
  importCustomers: admin.companies.customers.import,
  // The webhook engagekit sends.
  orderEvent: client.webhooks.unwrap,
} satisfies { [Op in OperationId]: MethodFor<Op> };

it('maps every operationId to a client method', () => {
  expectTypeOf<keyof typeof methods>().toEqualTypeOf<OperationId>();
  expectTypeOf(admin.companies.webhookEndpoints.get).returns.toEqualTypeOf(client.webhookEndpoints.get('wh_1'));
});
