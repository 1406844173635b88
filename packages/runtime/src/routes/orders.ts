import { updateOrder, upsertOrder } from '../domain/orders.ts';
import { HttpError } from '../http/errors.ts';
import { presentOrder } from '../http/present.ts';
import type { OrderFields } from '../store/types.ts';
import type { HandlersFor } from './types.ts';

/** The body's order fields, without the keys (company_id, company_order_id). */
function fieldsOf(body: Record<string, unknown>): OrderFields {
  const { company_id: _, company_order_id: __, ...fields } = body;
  return fields as OrderFields;
}

/** addOrder (upsert) and updateOrder. The token's company is checked against `company_id` before these run. */
export const orderHandlers: HandlersFor<'addOrder' | 'updateOrder'> = {
  async addOrder({ company, body, ctx }) {
    const { order, created } = await upsertOrder(ctx.store, ctx.write, company, body.company_order_id, fieldsOf(body));
    return created
      ? { status: 201, body: { success: true, message: 'Order created successfully.', data: presentOrder(order) } }
      : { status: 200, body: { success: true, message: 'Order updated successfully.', data: presentOrder(order) } };
  },

  async updateOrder({ company, params, body, ctx }) {
    const result = await updateOrder(ctx.store, ctx.write, company, params.orderId, fieldsOf(body));
    if (!result)
      throw new HttpError(404, `No order ${params.orderId} in company ${company.company_id}`, {
        issues: [{ path: 'orderId', message: 'no such order in this company' }],
      });
    return { status: 200, body: { success: true, message: 'Order updated successfully.', data: presentOrder(result.order) } };
  },
};
