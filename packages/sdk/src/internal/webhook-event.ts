/** A light structural check of webhook payloads, so the webhooks entry needs no schema library. */

/** The event types this SDK version knows. */
export const EVENT_TYPES = ['order.created', 'order.updated'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with `value` as an engagekit event, or undefined when it has the event's shape. */
export function describeEventProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not a JSON object';
  for (const key of ['id', 'type', 'created_at'] as const) {
    if (typeof value[key] !== 'string' || value[key] === '') return `"${key}" must be a non-empty string`;
  }
  if (value.test !== undefined && typeof value.test !== 'boolean') return '"test" must be a boolean when present';
  if (!isObject(value.data)) return '"data" must be an object';
  const order = value.data.order;
  if (!isObject(order)) return '"data.order" must be an object';
  for (const key of ['id', 'company_id', 'company_order_id', 'phoneNumber', 'created_at', 'updated_at'] as const) {
    if (typeof order[key] !== 'string') return `"data.order.${key}" must be a string`;
  }
  if (typeof order.totalAmount !== 'number') return '"data.order.totalAmount" must be a number';
  if (typeof order.version !== 'number') return '"data.order.version" must be a number';
  if (!Array.isArray(order.products)) return '"data.order.products" must be an array';
  return undefined;
}
