import * as z from 'zod';
import { createDocument, createSchema, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { codeSample } from './code-samples.ts';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, ErrorResponse, type ErrorStatus } from './envelope.ts';
import type { HttpMethod, OperationSpec } from './operation.ts';
import { type OperationId, operations } from './operations.ts';
import { WebhookEvent } from './resources/webhook.ts';
import { errorStatusesOf } from './statuses.ts';
import { apiVersion } from './version.ts';

export { codeSample, sdkCalls } from './code-samples.ts';
export { apiVersion } from './version.ts';

const RequestIdHeader = z
  .string()
  .meta({ description: 'The request id, also in error bodies; quote it when asking for help.', example: 'req_5f3c9b2e8a1d4c67', header: { id: 'RequestId' } });
const IdempotencyHeader = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().meta({
    description:
      'Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409.',
    example: 'c1f1b4f2-7a4e-4f4e-9f67-2d1c3e0a9b15',
  }),
});
const RetryAfterHeader = z.string().meta({ description: 'Seconds to wait before trying again.', example: '30', header: { id: 'RetryAfter' } });

const errorMeta: Record<ErrorStatus, { description: string; example: string }> = {
  400: {
    description:
      'The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all).',
    example: 'Invalid request: phoneNumber must be an E.164 phone number',
  },
  401: { description: 'The token is missing, malformed, expired or badly signed.', example: 'Unauthorized: missing bearer token' },
  403: {
    description: 'The token is valid but for another company, or lacks the scope.',
    example: 'Forbidden: the token does not belong to this company',
  },
  404: { description: 'Unknown company or resource.', example: 'No company found with the provided uuid' },
  405: { description: 'The path exists but not with this method.', example: 'Method not allowed' },
  409: {
    description:
      'The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer).',
    example: 'Campaign name already exists',
  },
  413: { description: 'The body is over 1 MB.', example: 'Request body is larger than 1048576 bytes' },
  415: {
    description: 'The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case).',
    example: 'Content-Type must be application/json',
  },
  429: {
    description: `Too many requests for this company (its tokens count together) or the admin token: the server allows ${DEFAULT_RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')} requests a minute per company unless it is set otherwise (\`RATE_LIMIT_PER_MINUTE\`, counted per instance). Wait \`Retry-After\` seconds; the SDK does, and retries a 429 twice by default.`,
    example: 'Too many requests: retry in 30 seconds',
  },
  500: { description: 'Something failed on the server; nothing internal is said.', example: 'Something went wrong on the backend' },
  503: {
    description:
      'The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds.',
    example: 'Service unavailable: the database is unavailable; retry in 1 s',
  },
};

/** The error statuses that may say when to try again (429 always does). */
const MAY_SAY_WHEN: readonly ErrorStatus[] = [409, 503];

/**
 * The answer of an error status, written out in every operation that lists it rather than shared under
 * `components.responses`: orval's zod mode imports a shared response's type from its models without
 * ever generating it.
 */
function errorResponse(status: ErrorStatus): ZodOpenApiResponseObject {
  const m = errorMeta[status];
  return {
    description: m.description,
    headers:
      status === 429
        ? z.object({ 'x-request-id': RequestIdHeader, 'retry-after': RetryAfterHeader })
        : MAY_SAY_WHEN.includes(status)
          ? z.object({ 'x-request-id': RequestIdHeader, 'retry-after': RetryAfterHeader.optional() })
          : z.object({ 'x-request-id': RequestIdHeader }),
    content: { 'application/json': { schema: ErrorResponse } },
  };
}
const errorResponses = Object.fromEntries(
  (Object.keys(errorMeta) as unknown as ErrorStatus[]).map((s) => [s, errorResponse(Number(s) as ErrorStatus)]),
) as Record<ErrorStatus, ZodOpenApiResponseObject>;

function securityOf(op: OperationSpec): Record<string, string[]>[] {
  if (op.auth.kind === 'company') return [{ companyToken: [] }];
  if (op.auth.kind === 'admin') return [{ adminToken: [] }];
  if (op.auth.kind === 'admin-or-company') return [{ adminToken: [] }, { companyToken: [] }];
  return [];
}

function toOperationObject(op: OperationSpec, method: HttpMethod): ZodOpenApiOperationObject {
  const alias = method !== op.method;
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    if (!r) continue;
    responses[status] = {
      description: r.description,
      headers: z.object({ 'x-request-id': RequestIdHeader }),
      content: { 'application/json': { schema: r.schema } },
    };
  }
  const write = method !== 'get';
  for (const s of errorStatusesOf(op, method)) responses[s] = errorResponses[s];
  return {
    'x-codeSamples': sdkSample(op.operationId as OperationId),
    operationId: alias ? `${op.operationId}With${method[0]?.toUpperCase()}${method.slice(1)}` : op.operationId,
    summary: alias ? `${op.summary} (${method.toUpperCase()})` : op.summary,
    description: [
      alias ? `The same as \`${op.operationId}\`, accepted with ${method.toUpperCase()} for compatibility.` : '',
      op.description,
      op.auth.kind === 'company' ? `Needs a company token with the \`${op.auth.scope}\` scope.` : '',
      op.auth.kind === 'admin-or-company' ? `Takes the admin token, or a company token of this company with the \`${op.auth.scope}\` scope.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    tags: [...op.tags],
    security: securityOf(op),
    ...(op.params || op.query || write
      ? {
          requestParams: {
            ...(op.params ? { path: op.params } : {}),
            ...(op.query ? { query: op.query } : {}),
            ...(write ? { header: IdempotencyHeader } : {}),
          },
        }
      : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses: responses as ZodOpenApiOperationObject['responses'],
  };
}

const webhookHeaders = z.object({
  'webhook-id': z.string().meta({ description: 'The event id; the same on every retry of the event.', example: 'evt_01JD4Z8Q3T5V' }),
  'webhook-timestamp': z.string().meta({ description: 'Unix seconds when this attempt was signed.', example: '1736935200' }),
  'webhook-signature': z.string().meta({
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body`; several during a secret rotation.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

/** `x-codeSamples` of an operation: its call with @engagekit/sdk, which the API reference shows. */
function sdkSample(operationId: OperationId | 'orderEvent') {
  return [{ lang: 'TypeScript', label: '@engagekit/sdk', source: codeSample(operationId) }];
}

/** What the server POSTs to an endpoint: one event, `order.created` or `order.updated`, told apart by `type`. */
const orderEventWebhook: ZodOpenApiOperationObject = {
  'x-codeSamples': sdkSample('orderEvent'),
  operationId: 'orderEvent',
  summary: 'An order event',
  description:
    'An order was added (`order.created`) or updated (`order.updated`); the endpoint receives the types it subscribed to. Signed per the Standard Webhooks spec; verify it with `verifyWebhook` from `@engagekit/sdk/webhooks`. Delivery is at least once: drop duplicates by `webhook-id`.',
  tags: ['Webhook events'],
  security: [],
  requestParams: { header: webhookHeaders },
  // The event as the server writes it: the component, rendered as output (every field present).
  requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
  responses: {
    200: { description: 'Any 2xx acknowledges the event. Another status, or no answer in 15 s, is retried with backoff.' },
    410: { description: 'Gone: the server disables the endpoint and sends it nothing more.' },
  },
};

/**
 * Adds the webhook events to the document's components as the server writes them (output: every
 * field present), with `WebhookEvent`, their union on `type`. createDocument would render them as
 * input, request bodies being input, and name the responses' `Order` twin `OrderOutput`.
 */
function withEvents(document: ReturnType<typeof createDocument>): ReturnType<typeof createDocument> {
  const { components = {} } = createSchema(WebhookEvent, { io: 'output' });
  const schemas = { ...document.components?.schemas };
  for (const [name, schema] of Object.entries(components)) {
    if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) {
      throw new Error(`the component ${name} renders differently in a webhook event and in an answer: give one of them another id`);
    }
    schemas[name] = schema;
  }
  return { ...document, components: { ...document.components, schemas } };
}

type SchemaNode = { [key: string]: unknown };

/**
 * openapi-typescript, with its default flags, types a property that has a `default` as required,
 * even inside a request body's component. The server fills such a property in when it is left out,
 * so the document keeps it optional for every generator: the default goes into the description.
 * Answers are untouched: there a property with a default is always present, and listed required.
 */
function defaultsIntoDescriptions(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) defaultsIntoDescriptions(item);
    return;
  }
  const schema = node as SchemaNode;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, SchemaNode>)) {
    if (required.has(name) || !('default' in property)) continue;
    const said = `Default: \`${JSON.stringify(property.default)}\`.`;
    property.description = typeof property.description === 'string' ? `${property.description} ${said}` : said;
    delete property.default;
  }
  for (const [key, value] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') defaultsIntoDescriptions(value);
}

/** Builds the OpenAPI 3.1 document from the operation table. */
export function createOpenApiDocument(): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of Object.values(operations) as OperationSpec[]) {
    paths[op.path] ??= {};
    const item = paths[op.path] as ZodOpenApiPathsObject[string];
    for (const m of [op.method, ...(op.alsoAccepts ?? [])]) item[m] = toOperationObject(op, m);
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'engagekit API',
      version: apiVersion,
      summary: 'WhatsApp templates and broadcast campaigns, orders and order webhooks.',
      description:
        'The agency API syncs a company, submits WhatsApp templates, creates and reads broadcast campaigns, lists customers and reads the campaign report. The order API adds and updates orders; order events go out by signed webhook. The admin API manages companies, tokens and webhook endpoints.\n\nEvery JSON answer is an envelope: `{ success: true, message, data }` on success, `{ success: false, message, code, issues?, requestId }` on error.\n\n`info.version` is the version of the API. A server states its own version, and the API version it serves, at `/api/v2/health` (`version`, `api_version`).',
      contact: { name: 'engagekit maintainers' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: '{baseUrl}',
        description: 'Where the API is served: every operation lives under the same base URL.',
        variables: {
          baseUrl: {
            default: 'http://127.0.0.1:3000',
            description: 'The base URL of your deployment, without a trailing slash. `npx @engagekit/reference-server` listens on http://127.0.0.1:3000.',
          },
        },
      },
    ],
    tags: [
      {
        name: 'Agency',
        description:
          'Sync, templates, campaigns, customers and the report of one company (`uuid`). Bearer company JWT with the `agency` scope; the template list (`/api/v2/companies/{uuid}/templates`) and pausing, resuming and cancelling a campaign (`/api/v2/companies/{uuid}/campaigns/{id}/...`) also take the admin token.',
      },
      { name: 'Orders', description: 'Add and update orders. Bearer company JWT with the `orders` scope.' },
      {
        name: 'Admin',
        description: 'Companies and tokens. Bearer admin token; a company token with the `agency` scope also reads its own company (`getCompany`).',
      },
      {
        name: 'Webhooks',
        description:
          'Webhook endpoints, their secrets and delivery logs. Bearer admin token, or a company token of the company in the path with the `orders` scope (the events are orders).',
      },
      { name: 'Webhook events', description: 'What the server POSTs to registered endpoints.' },
    ],
    components: {
      securitySchemes: {
        companyToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A company JWT issued by `POST /api/v2/companies/{uuid}/tokens`, with scopes `agency` and/or `orders`.',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (`ADMIN_TOKEN`, or the one the server printed at first start).' },
      },
    },
    paths,
    webhooks: {
      orderEvent: { post: orderEventWebhook },
    },
  });
  defaultsIntoDescriptions(document.components?.schemas);
  return withEvents(document);
}
