/**
 * The partner's webhook receiver: a plain `Request -> Response` handler (mount it in any framework)
 * that verifies engagekit's signature and hands each order event to the shop once.
 */
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@engagekit/sdk/webhooks';

/** What the shop does with an order event. */
export type OrderEventHandler = (event: WebhookEvent) => Promise<void> | void;

/**
 * Creates the receiver. Answers 400 to a request that does not verify, 204 once handled (and 204 to a
 * redelivery of an event already handled, without handling it again: delivery is at least once).
 */
export function createOrderWebhookReceiver({
  secret,
  onEvent,
  clock,
}: {
  secret: string;
  onEvent: OrderEventHandler;
  /** The time signatures are checked against (they expire after 5 minutes). Default: the real time. */
  clock?: { now(): Date };
}) {
  const seen = new Set<string>();
  return async function receive(request: Request): Promise<Response> {
    const rawBody = await request.text();
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(rawBody, request.headers, secret, clock ? { now: clock.now() } : {});
    } catch (e) {
      if (e instanceof WebhookVerificationError) return new Response(e.message, { status: 400 });
      throw e;
    }
    if (!seen.has(event.id)) {
      await onEvent(event);
      seen.add(event.id);
    }
    return new Response(null, { status: 204 });
  };
}
