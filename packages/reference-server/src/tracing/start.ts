/**
 * OpenTelemetry tracing: loaded by main.ts, with a dynamic import, only when OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and before the server's code loads pg and node:http.
 * The SDK reads the other `OTEL_*` variables itself. Spans: each HTTP request (named by its operation),
 * each SQL statement (no parameter values), each webhook attempt (linked to the trace that queued it)
 * and each channel send (its call to the provider through fetch a child of it). The packages are
 * optional peer dependencies of the server: a deployment that traces installs them.
 */
import { createRequire } from 'node:module';
import type { ChannelAdapter, WebhookTransport } from '@engagekit/runtime';
import { context, type Link, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { Tracing } from './tracing.ts';

/** Records what `span`'s work threw as its exception and error status, and throws it on. */
function failed(span: Span, e: unknown): never {
  span.recordException(e as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
  throw e;
}

/** The span context a kept `traceparent` names, as a link; none for a value that is not one. */
function linkTo(traceparent: string | undefined): Link[] {
  if (!traceparent) return [];
  const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  return linked ? [{ context: linked }] : [];
}

/**
 * Starts the OpenTelemetry SDK with its OTLP/HTTP exporter and the HTTP, pg and undici instrumentations.
 * `serviceName` unless OTEL_SERVICE_NAME names another.
 */
export function startTracing(serviceName: string, version: string): Tracing {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter(),
    // Outgoing requests of node:http are the webhook attempts, which get a span of their own (below).
    instrumentations: [new HttpInstrumentation({ ignoreOutgoingRequestHook: () => true }), new PgInstrumentation(), new UndiciInstrumentation()],
  });
  sdk.start();
  // The command's bundle imports pg and node:http as ES modules, which the require hooks of the
  // instrumentations do not see: requiring them here first patches the one copy those imports share.
  const require = createRequire(import.meta.url);
  require('node:http');
  require('pg');
  const tracer = trace.getTracer('@engagekit/reference-server', version);
  return {
    nameRequest(method, operationId) {
      const span = trace.getActiveSpan();
      span?.updateName(`${method} ${operationId}`);
      span?.setAttribute('engagekit.operation', operationId);
    },
    traceContext() {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent ?? null;
    },
    transport(send: WebhookTransport): WebhookTransport {
      const traced = (post: Parameters<WebhookTransport>[0]) =>
        // A new trace, linked to the request's: the delivery is made later, often by another instance.
        tracer.startActiveSpan(
          'webhook delivery',
          {
            kind: SpanKind.CLIENT,
            root: true,
            links: linkTo(post.traceContext),
            attributes: { 'http.request.method': 'POST', 'server.address': new URL(post.url).hostname },
          },
          async (span) => {
            const headers = { ...post.headers };
            propagation.inject(context.active(), headers);
            try {
              const answer = await send({ ...post, headers });
              span.setAttribute('http.response.status_code', answer.status);
              if (answer.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
              return answer;
            } catch (e) {
              failed(span, e);
            } finally {
              span.end();
            }
          },
        );
      return Object.assign(traced, { checksAddresses: send.checksAddresses });
    },
    channel(channel: ChannelAdapter): ChannelAdapter {
      return {
        ...channel,
        send: (message) =>
          // A trace of its own: a campaign's sends are made by whichever instance runs the chunk, under no request.
          tracer.startActiveSpan('channel send', { kind: SpanKind.CLIENT, root: true, attributes: { 'engagekit.channel': channel.name } }, async (span) => {
            try {
              const result = await channel.send(message);
              span.setAttribute('engagekit.channel.outcome', result.status === 'failed' ? 'failed' : 'sent');
              if (result.errorCode != null) span.setAttribute('engagekit.channel.error_code', result.errorCode);
              if (result.failure?.httpStatus != null) span.setAttribute('http.response.status_code', result.failure.httpStatus);
              if (result.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? 'failed' });
              return result;
            } catch (e) {
              failed(span, e);
            } finally {
              span.end();
            }
          }),
      };
    },
    shutdown: () => sdk.shutdown(),
  };
}
