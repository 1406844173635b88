import type { OperationId } from './operations.ts';

/** Which client a sample calls: the company client (`client`) or the admin client (`admin`). */
type Caller = 'client' | 'admin';

const setup: Record<Caller, string> = {
  client: `import { createClient } from '@engagekit/sdk';

const client = createClient({
  baseUrl: 'https://api.example.com',
  token: process.env.ENGAGEKIT_TOKEN ?? '',
  uuid: process.env.ENGAGEKIT_UUID ?? '',
  webhookSecret: process.env.ENGAGEKIT_WEBHOOK_SECRET,
});
`,
  admin: `import { createAdminClient } from '@engagekit/sdk/admin';

const admin = createAdminClient({ baseUrl: 'https://api.example.com', adminToken: process.env.ENGAGEKIT_ADMIN_TOKEN ?? '' });
`,
};

const uuid = `'53d1bcd3-aaf0-45e1-9298-5395b6a27b61'`;
const endpoint = `'wh_01JD4Z8Q3T5V'`;

/**
 * The SDK call of every operation and of the order webhook, shown as `x-codeSamples` in the API
 * reference. The SDK's test suite typechecks each one against the built SDK, so none can drift from it.
 */
export const sdkCalls: Record<OperationId | 'orderEvent', { caller: Caller; call: string }> = {
  sync: { caller: 'client', call: 'const changed = await client.agency.sync();\nconsole.log(changed.customers.total);' },
  submitTemplate: {
    caller: 'client',
    call: `const template = await client.templates.submit({ template_name: 'welcome', phone_number: '6363978748', wam_id: 'wamid.HBgL' });\nconsole.log(template.status);`,
  },
  listTemplates: {
    caller: 'client',
    call: 'for await (const template of client.templates.list()) {\n  console.log(template.template_name, template.status, template.reason);\n}',
  },
  createCampaign: {
    caller: 'client',
    call: `const campaign = await client.campaigns.create({
  name: 'Spring sale',
  schedule_type: 'once',
  schedule: '2030-01-15T10:00:00+05:30',
  template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
});
console.log(campaign.id, campaign.next_run_at);`,
  },
  getCampaignData: {
    caller: 'client',
    call: `for await (const campaign of client.campaigns.list({ limit: 50 })) {\n  console.log(campaign.name, campaign.status);\n}`,
  },
  getCampaign: { caller: 'client', call: `const campaign = await client.campaigns.get('cmp_01JD4Z8Q3T5V');\nconsole.log(campaign.status);` },
  pauseCampaign: {
    caller: 'client',
    call: `const campaign = await client.campaigns.pause('cmp_01JD4Z8Q3T5V');\nconsole.log(campaign.status, campaign.pause_reason);`,
  },
  resumeCampaign: { caller: 'client', call: `const campaign = await client.campaigns.resume('cmp_01JD4Z8Q3T5V');\nconsole.log(campaign.status);` },
  cancelCampaign: {
    caller: 'client',
    call: `const campaign = await client.campaigns.cancel('cmp_01JD4Z8Q3T5V');\nconsole.log(campaign.status, campaign.endDate);`,
  },
  getCustomers: { caller: 'client', call: `for await (const customer of client.customers.list({ limit: 100 })) {\n  console.log(customer.phoneNumber);\n}` },
  reportingCampaign: { caller: 'client', call: 'const report = await client.reports.get();\nconsole.log(report.messages.read, report.orders.amount);' },
  addOrder: {
    caller: 'client',
    call: `const order = await client.orders.add({
  company_id: 'VERPL000972024',
  company_order_id: 'ORD-001',
  totalAmount: 1500.75,
  firstName: 'John',
  phoneNumber: '+1234567890',
  postalCode: '56789',
  streetAddress1: '123 Main Street',
});
console.log(order.version);`,
  },
  updateOrder: {
    caller: 'client',
    call: `const order = await client.orders.update('ORD-001', { company_id: 'VERPL000972024', companyOrderStatus: 'Shipped' });\nconsole.log(order.version);`,
  },
  getHealth: { caller: 'admin', call: 'const health = await admin.health();\nconsole.log(health.database);' },
  getLiveness: { caller: 'admin', call: 'const { status } = await admin.liveness();\nconsole.log(status);' },
  getReadiness: { caller: 'admin', call: 'const { status } = await admin.readiness(); // an APIError with status 503 when not ready\nconsole.log(status);' },
  createCompany: { caller: 'admin', call: `const company = await admin.companies.create({ name: 'Acme' });\nconsole.log(company.uuid);` },
  listCompanies: { caller: 'admin', call: 'for await (const company of admin.companies.list()) {\n  console.log(company.uuid, company.name);\n}' },
  getCompany: { caller: 'client', call: 'const company = await client.company.get();\nconsole.log(company.company_id);' },
  createToken: {
    caller: 'admin',
    call: `const { token } = await admin.companies.tokens.create(${uuid}, { scopes: ['agency', 'orders'] });\nconsole.log(token);`,
  },
  listTokens: {
    caller: 'admin',
    call: `for await (const token of admin.companies.tokens.list(${uuid})) {\n  console.log(token.id, token.scopes, token.revoked_at);\n}`,
  },
  revokeToken: {
    caller: 'admin',
    call: `const revoked = await admin.companies.tokens.revoke(${uuid}, '7f9c2e4a-1b3d-4c5e-8f6a-0b1c2d3e4f5a');\nconsole.log(revoked.revoked_at);`,
  },
  revokeCompanyTokens: {
    caller: 'admin',
    call: `const { tokens_valid_after } = await admin.companies.tokens.revokeAll(${uuid});\nconsole.log(tokens_valid_after);`,
  },
  importCustomers: {
    caller: 'admin',
    call: `const imported = await admin.companies.customers.import(${uuid}, { customers: [{ phoneNumber: '+14155550100', firstName: 'Ada' }] });\nconsole.log(imported.created);`,
  },
  createWebhook: {
    caller: 'client',
    call: `const endpoint = await client.webhookEndpoints.create({ url: 'https://hooks.example.com/engagekit', events: ['order.created'] });\nconsole.log(endpoint.secret);`,
  },
  listWebhooks: { caller: 'client', call: 'for await (const endpoint of client.webhookEndpoints.list()) {\n  console.log(endpoint.url, endpoint.enabled);\n}' },
  getWebhook: { caller: 'client', call: `const endpoint = await client.webhookEndpoints.get(${endpoint});\nconsole.log(endpoint.events);` },
  updateWebhook: {
    caller: 'client',
    call: `const endpoint = await client.webhookEndpoints.update(${endpoint}, { enabled: false });\nconsole.log(endpoint.enabled);`,
  },
  deleteWebhook: { caller: 'client', call: `await client.webhookEndpoints.delete(${endpoint});` },
  rotateWebhookSecret: {
    caller: 'client',
    call: `const rotated = await client.webhookEndpoints.rotateSecret(${endpoint}, { grace_period_s: 3600 });\nconsole.log(rotated.secret);`,
  },
  sendTestEvent: {
    caller: 'client',
    call: `const delivery = await client.webhookEndpoints.sendTest(${endpoint}, { event_type: 'order.updated' });\nconsole.log(delivery.status);`,
  },
  listWebhookDeliveries: {
    caller: 'client',
    call: `for await (const delivery of client.webhookEndpoints.deliveries(${endpoint}, { status: 'failed' })) {\n  console.log(delivery.event_id, delivery.attempt_count);\n}`,
  },
  redeliverWebhookDelivery: {
    caller: 'client',
    call: `const delivery = await client.webhookEndpoints.redeliver(${endpoint}, 'dlv_01JD4Z8Q3T5V');\nconsole.log(delivery.status);`,
  },
  orderEvent: {
    caller: 'client',
    call: `// A fetch-style handler (a Next.js route handler, a worker): verify the raw body, then use the typed event.
export async function POST(request: Request): Promise<Response> {
  const event = await client.webhooks.unwrap(await request.text(), request.headers);
  if (event.type === 'order.created') console.log('new order', event.data.order.company_order_id);
  return new Response(null, { status: 204 });
}`,
  },
};

/** The whole sample of an operation (or `orderEvent`): the client it calls, then the call. */
export function codeSample(operationId: OperationId | 'orderEvent'): string {
  const { caller, call } = sdkCalls[operationId];
  return `${setup[caller]}\n${call}\n`;
}
