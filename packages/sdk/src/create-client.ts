/** `createClient`: the company client, its options checked, over its transport and resources. */
import type { ClientOptions, EngageClient } from './client.ts';
import { check, createTransport, isAbsoluteUrl } from './internal/setup.ts';
import { createResources } from './resources.ts';

/**
 * Creates a client for one company.
 *
 * @example
 * import { createClient } from '@engagekit/sdk';
 * const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.ENGAGEKIT_TOKEN, uuid: process.env.ENGAGEKIT_UUID });
 * const campaign = await client.campaigns.create({ name: 'Spring', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } });
 */
export function createClient(options: ClientOptions): EngageClient {
  const where = 'createClient';
  check(where, typeof options === 'object' && options !== null, 'pass an options object: createClient({ baseUrl, token, uuid })');
  check(
    where,
    options.orderBaseUrl === undefined || isAbsoluteUrl(options.orderBaseUrl),
    `orderBaseUrl must be an absolute http(s) URL (got ${JSON.stringify(options.orderBaseUrl)})`,
  );
  check(where, typeof options.token === 'string' && options.token.length > 0, 'token is required: the company token issued by the admin API');
  check(where, typeof options.uuid === 'string' && options.uuid.length > 0, 'uuid is required: the company UUID');
  const orderBaseUrl = options.orderBaseUrl ?? options.baseUrl;
  const transport = createTransport(where, options, options.token);
  const api = { agency: transport.client(options.baseUrl), orders: transport.client(orderBaseUrl) };
  return { ...createResources({ uuid: options.uuid, transport, api, webhookSecret: options.webhookSecret }), api };
}
