/**
 * A partner's integration code (a shop): push the shop's orders into engagekit, then start a campaign
 * for the customers they made. This is the code under test; it only knows the SDK.
 */
import { type AddOrderBody, APIConnectionError, APIError, type Campaign, ConflictError, type EngageClient } from '@engagekit/sdk';

/** An order as the shop keeps it. */
export interface ShopOrder {
  number: string;
  customer: { firstName: string; lastName?: string; phone: string; email?: string };
  total: number;
  shipTo: { line1: string; line2?: string; city?: string; postalCode: string };
  status: 'paid' | 'shipped' | 'delivered';
}

/** What one push did, order by order. */
export interface PushReport {
  created: string[];
  updated: string[];
  /** Orders engagekit refused or could not be reached for; `status` is null when no answer came. */
  failed: { number: string; status: number | null; message: string }[];
}

/** The shop's order as engagekit takes it. */
export function toEngagekitOrder(companyId: string, order: ShopOrder): AddOrderBody {
  return {
    company_id: companyId,
    company_order_id: order.number,
    totalAmount: order.total,
    firstName: order.customer.firstName,
    ...(order.customer.lastName ? { lastName: order.customer.lastName } : {}),
    ...(order.customer.email ? { email: order.customer.email } : {}),
    phoneNumber: order.customer.phone,
    streetAddress1: order.shipTo.line1,
    ...(order.shipTo.line2 ? { streetAddress2: order.shipTo.line2 } : {}),
    ...(order.shipTo.city ? { city: order.shipTo.city } : {}),
    postalCode: order.shipTo.postalCode,
    companyOrderStatus: order.status,
  };
}

/** The shop's link to engagekit. */
export function createShopSync({ client, companyId }: { client: EngageClient; companyId: string }) {
  /** Adds every order (an order engagekit already has is updated); one refused order does not stop the rest. */
  async function pushOrders(orders: ShopOrder[]): Promise<PushReport> {
    const report: PushReport = { created: [], updated: [], failed: [] };
    for (const order of orders) {
      try {
        const { status } = await client.orders.add(toEngagekitOrder(companyId, order)).withResponse();
        (status === 201 ? report.created : report.updated).push(order.number);
      } catch (e) {
        if (e instanceof APIError) report.failed.push({ number: order.number, status: e.status, message: e.message });
        else if (e instanceof APIConnectionError) report.failed.push({ number: order.number, status: null, message: e.message });
        else throw e;
      }
    }
    return report;
  }

  /** Starts a one-off campaign with the shop's thank-you template; running it twice finds the first one. */
  async function launchThankYouCampaign(name: string, at: Date): Promise<{ campaign: Campaign; created: boolean }> {
    try {
      const campaign = await client.campaigns.create({
        name,
        schedule_type: 'once',
        schedule: at.toISOString(),
        template_payload: { template_name: 'thank_you', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
      });
      return { campaign, created: true };
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      for await (const campaign of client.campaigns.list({ limit: 100 })) if (campaign.name === name) return { campaign, created: false };
      throw e;
    }
  }

  /** The nightly job: push the day's orders, refresh customers, start the thank-you campaign. */
  async function nightly(orders: ShopOrder[], campaignName: string, at: Date) {
    const pushed = await pushOrders(orders);
    const synced = await client.agency.sync();
    const { campaign, created } = await launchThankYouCampaign(campaignName, at);
    return { pushed, customers: synced.customers.total, campaign, campaignCreated: created };
  }

  return { pushOrders, launchThankYouCampaign, nightly };
}
