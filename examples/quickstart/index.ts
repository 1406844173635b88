/**
 * The engagekit quickstart: what an integrator writes first with @engagekit/sdk.
 *
 *   ENGAGEKIT_BASE_URL=http://127.0.0.1:3000 ENGAGEKIT_TOKEN=<company token> ENGAGEKIT_UUID=<company uuid> \
 *     pnpm --filter @engagekit/example-quickstart start
 *
 * It creates a campaign, shows a typed error, adds and updates an order, then pages through the
 * company's campaigns and customers. See README.md beside it.
 */
import { ConflictError, type CreateCampaignBody, createClient, EngageError } from '@engagekit/sdk';

const { ENGAGEKIT_BASE_URL, ENGAGEKIT_TOKEN, ENGAGEKIT_UUID } = process.env;
// The company code orders carry; the default is the demo company that `pnpm start` creates.
const companyId = process.env.ENGAGEKIT_COMPANY_ID || 'VERPL000972024';
if (!ENGAGEKIT_BASE_URL || !ENGAGEKIT_TOKEN || !ENGAGEKIT_UUID) {
  console.error('Set ENGAGEKIT_BASE_URL, ENGAGEKIT_TOKEN and ENGAGEKIT_UUID first: see examples/quickstart/README.md.');
  process.exit(1);
}

const client = createClient({ baseUrl: ENGAGEKIT_BASE_URL, token: ENGAGEKIT_TOKEN, uuid: ENGAGEKIT_UUID });

try {
  // 1. A campaign that greets every customer by first name, a week from now.
  const body: CreateCampaignBody = {
    name: `Quickstart ${new Date().toISOString()}`,
    schedule_type: 'once',
    schedule: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  };
  const campaign = await client.campaigns.create(body);
  console.log(`Created campaign ${campaign.id} "${campaign.name}": ${campaign.status}, runs at ${campaign.next_run_at}`);

  // 2. Errors are typed: a second campaign with the same name is a ConflictError (never retried).
  try {
    await client.campaigns.create(body);
  } catch (err) {
    if (!ConflictError.is(err)) throw err;
    console.log(`A second "${body.name}" is refused: ${err.status} ${err.code}, "${err.message}" (request ${err.requestId})`);
  }

  // 3. Add an order (201 when new, 200 when it existed), then update it by the company's own order id.
  const orderId = `QS-${Date.now()}`;
  const added = await client.orders
    .add({
      company_id: companyId,
      company_order_id: orderId,
      totalAmount: 1499.5,
      firstName: 'Asha',
      lastName: 'Rao',
      phoneNumber: '+919800000001',
      postalCode: '560001',
      streetAddress1: '1 MG Road',
      products: [{ product_id: 'SKU-1', quantity: 1, price: 1499.5 }],
    })
    .withResponse();
  console.log(`Added order ${orderId}: HTTP ${added.status}, version ${added.data.version}`);
  const updated = await client.orders.update(orderId, { company_id: companyId, companyOrderStatus: 'Shipped' });
  console.log(`Updated order ${orderId}: ${updated.companyOrderStatus}, version ${updated.version}`);

  // 4. Lists: await for one page, `for await` for every item (pages are fetched as needed).
  const firstPage = await client.campaigns.list({ limit: 10 });
  console.log(`Campaigns: ${firstPage.total} in ${firstPage.pagination.totalPages} page(s) of 10`);
  let count = 0;
  for await (const c of client.campaigns.list({ limit: 10 })) {
    count++;
    if (c.id === campaign.id) console.log(`  found ${c.name} at position ${count}, oldest first`);
  }
  const customers = await client.customers.list({ limit: 50 }).toArray({ max: 5 });
  console.log(`Customers (first ${customers.length}):`);
  for (const c of customers) console.log(`  ${c.name} ${c.phoneNumber}: ${c.orders_count} order(s), ${c.orders_amount} total`);
  console.log('Done.');
} catch (err) {
  // Every SDK error is an EngageError; API errors carry status, code, issues and requestId.
  if (!EngageError.is(err)) throw err;
  console.error(`${err.name}: ${err.message}`);
  process.exit(1);
}
