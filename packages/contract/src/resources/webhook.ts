import * as z from 'zod';
import { Id, Timestamp } from '../primitives.ts';
import { Order } from './order.ts';

/** Event types an endpoint can subscribe to. */
export const EventType = z.enum(['order.created', 'order.updated']).meta({ id: 'EventType', example: 'order.created' });
export type EventType = z.infer<typeof EventType>;
export const eventTypes = EventType.options;

const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2048, 'must be at most 2048 characters')
  .meta({ description: 'Where deliveries are POSTed: http(s) to a public address.', example: 'https://hooks.partner.example/engagekit' });

const Events = z
  .array(EventType)
  // Each type once: a longer list cannot be right.
  .max(eventTypes.length, `must list at most ${eventTypes.length} event types, each once`)
  .refine((e) => new Set(e).size === e.length, 'must not repeat an event type')
  .meta({ description: 'Event types to receive; every type when empty or absent.', example: ['order.created', 'order.updated'] });

const Description = z.string().max(500, 'must be at most 500 characters').meta({ example: 'Order sync to our warehouse' });

export const CreateWebhookBody = z
  .object({ url: WebhookUrl, events: Events.default([]), description: Description.default(''), enabled: z.boolean().default(true) })
  .meta({ id: 'NewWebhookEndpoint' });
export type CreateWebhookBody = z.input<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({ url: WebhookUrl.optional(), events: Events.optional(), description: Description.optional(), enabled: z.boolean().optional() })
  .meta({ id: 'WebhookEndpointChanges' });
export type UpdateWebhookBody = z.input<typeof UpdateWebhookBody>;

export const WebhookSecret = z.string().meta({ description: 'Signing secret, `whsec_` then base64.', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });

/** A webhook endpoint of a company. */
export const WebhookEndpoint = z
  .object({
    id: Id.meta({ example: 'wh_01JD4Z8Q3T5V' }),
    url: z.string().meta({ example: 'https://hooks.partner.example/engagekit' }),
    description: z.string().meta({ example: 'Order sync to our warehouse' }),
    events: z.array(EventType),
    enabled: z.boolean().meta({ example: true }),
    disabled_reason: z.string().nullable().meta({ description: 'Why the server disabled it (e.g. the receiver answered 410).', example: null }),
    secret: WebhookSecret,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookParams = z.object({
  uuid: z.guid('must be a UUID').meta({ description: 'The company UUID.', format: 'uuid', example: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61' }),
  id: z.string().min(1).max(64).meta({ description: 'The webhook endpoint id.', example: 'wh_01JD4Z8Q3T5V' }),
});

export const DeliveryParams = WebhookParams.extend({
  deliveryId: z.string().min(1).max(64).meta({ description: 'The delivery id.', example: 'dlv_01JD4Z8Q3T5V' }),
});

export const RotateSecretBody = z
  .object({
    grace_period_s: z
      .int('must be a whole number of seconds')
      .min(0, 'must be >= 0')
      .max(604_800, 'must be at most 7 days (604800 seconds)')
      .default(86_400)
      .meta({ description: 'How long the old secret still signs beside the new one; 24 h when left out.', example: 86400 }),
  })
  .meta({ id: 'SecretRotation' });

export const RotatedSecret = z.object({ secret: WebhookSecret, previous_secret_expires_at: Timestamp.nullable() }).meta({ id: 'RotatedSecret' });

export const DeliveryAttempt = z
  .object({
    attempt: z.int().min(1).meta({ example: 1 }),
    started_at: Timestamp,
    status_code: z.int().nullable().meta({ description: 'The receiver’s HTTP status, null when no answer came.', example: 200 }),
    latency_ms: z.number().min(0).meta({ example: 42 }),
    response_excerpt: z.string().nullable().meta({ description: 'The first bytes of the answer.', example: 'ok' }),
    error: z.string().nullable().meta({ description: 'Connection error or timeout, when no answer came.', example: null }),
  })
  .meta({ id: 'DeliveryAttempt' });

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed']).meta({ id: 'DeliveryStatus', example: 'succeeded' });

export const Delivery = z
  .object({
    id: Id.meta({ example: 'dlv_01JD4Z8Q3T5V' }),
    endpoint_id: z.string().meta({ example: 'wh_01JD4Z8Q3T5V' }),
    event_id: z.string().meta({ example: 'evt_01JD4Z8Q3T5V' }),
    event_type: z.string().meta({ example: 'order.created' }),
    status: DeliveryStatus,
    attempt_count: z.int().min(0).meta({ example: 1 }),
    next_attempt_at: Timestamp.nullable(),
    created_at: Timestamp,
    attempts: z.array(DeliveryAttempt),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryListQuery = z.object({
  page: z.coerce
    .number('must be a whole number >= 1')
    .int('must be a whole number >= 1')
    .min(1, 'must be >= 1')
    .max(1_000_000_000)
    .default(1)
    .meta({ example: 1 }),
  limit: z.coerce
    .number('must be a whole number from 1 to 100')
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be >= 1')
    .max(100, 'must be <= 100')
    .default(20)
    .meta({ example: 20 }),
  status: DeliveryStatus.optional(),
});

export const TestEventBody = z
  .object({ event_type: EventType.default('order.created').meta({ description: 'The type of the sample event.' }) })
  .meta({ id: 'TestEventRequest' });

export const Deleted = z.object({ id: z.string().meta({ example: 'wh_01JD4Z8Q3T5V' }), deleted: z.literal(true) }).meta({ id: 'Deleted' });

const OrderEventDetail = z
  .object({ order: Order.meta({ description: 'The order as it was right after the change.' }) })
  .meta({ id: 'OrderEventDetail', description: 'What an order event is about.' });

/** The payload of every order webhook: `{ id, type, created_at, data: { order } }`. */
function orderEvent<T extends EventType>(type: T, id: string, description: string) {
  return z
    .object({
      id: z.string().meta({ description: 'Event id; also the `webhook-id` header. Use it to drop duplicates.', example: 'evt_01JD4Z8Q3T5V' }),
      type: z.literal(type),
      created_at: Timestamp,
      data: OrderEventDetail,
      test: z.boolean().optional().meta({ description: 'True on test events sent from the admin API or the settings page.' }),
    })
    .meta({ id, description });
}

export const OrderCreatedEvent = orderEvent('order.created', 'OrderCreatedEvent', 'An order was added.');
export const OrderUpdatedEvent = orderEvent('order.updated', 'OrderUpdatedEvent', 'An order was updated.');
export const WebhookEvent = z
  .discriminatedUnion('type', [OrderCreatedEvent, OrderUpdatedEvent])
  .meta({ id: 'WebhookEvent', description: 'Any event the server sends, told apart by `type`.' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;
