/**
 * What the server asks of its tracing, when OTEL_EXPORTER_OTLP_ENDPOINT turns it on. Types only:
 * the OpenTelemetry code itself is in `start.ts`, which main.ts imports only then.
 */
import type { ChannelAdapter, WebhookTransport } from '@engagekit/runtime';

/** The server's OpenTelemetry tracing, started (`startTracing`). */
export interface Tracing {
  /** Names the span of the request being served by its operation (`POST addOrder`). */
  nameRequest(method: string, operationId: string): void;
  /** The trace of the request being served, as a W3C `traceparent` (`RuntimeObserver.traceContext`). */
  traceContext(): string | null;
  /** `transport` with a span round each webhook attempt, linked to the trace that queued it, and `traceparent` sent. */
  transport(transport: WebhookTransport): WebhookTransport;
  /**
   * `channel` with a span round each send (`channel send`), in which a channel that calls its provider
   * through fetch (WhatsApp) sends `traceparent`, and the undici instrumentation spans that call.
   */
  channel(channel: ChannelAdapter): ChannelAdapter;
  /** Sends the spans not sent yet and stops. */
  shutdown(): Promise<void>;
}
