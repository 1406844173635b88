/**
 * The OpenAPI 3.1 document of the control endpoints under `/__mock`, served at `/__mock/openapi.json`
 * and shipped as `dist/control-openapi.json`: a partner in any language can drive the mock with a
 * client generated from it. The schemas come from zod: the contract's request bodies for sample data,
 * and the rule `mock.fail()` checks a fault by (`FaultBody`).
 */
import { ErrorResponse, jsonSchemaOf } from '@engagekit/contract';
import * as z from 'zod';
import { ClockBody, OutcomeBody, ResetBody, SnapshotBody, SnapshotId } from './control-bodies.ts';
import { FaultBody } from './faults.ts';
import { MockDataSchema } from './sample-data.ts';

const OUTCOMES = ['sent', 'delivered', 'read', 'failed'] as const;

const Seed = z.union([z.number(), z.string()]).meta({ description: 'Makes generated ids the same run after run.', example: 7 });
const Info = z.looseObject({
  company: z.looseObject({ uuid: z.string(), company_id: z.string(), name: z.string(), token: z.string() }),
  adminToken: z.string(),
  webhookSecret: z.string(),
  baseUrl: z.string(),
  orderBaseUrl: z.string(),
  seed: Seed.nullable(),
});
const Fault = z.looseObject({ operationId: z.string(), remaining: z.number().nullable() });
const Clock = z.object({
  now: z.string().meta({ description: "The mock's time (ISO-8601).", example: '2026-03-01T09:00:00.000Z' }),
  manual: z.boolean().meta({ description: 'True with --clock manual: time moves only through POST /__mock/clock.' }),
});
const Outcome = z.object({ status: z.enum(OUTCOMES), reason: z.string().optional() });
const Outcomes = z.object({ outcomes: z.record(z.string(), Outcome).meta({ description: "By phone number; '*' for every other number." }) });
const Message = z.object({
  campaignId: z.string(),
  runKey: z.string().meta({ description: "The campaign's due time this run was for." }),
  customerId: z.string(),
  to: z.string(),
  template: z.object({
    name: z.string(),
    language: z.string(),
    header: z.array(z.string()),
    body: z.array(z.string()),
    cards: z.array(z.object({ image_url: z.string(), body: z.array(z.string()) })),
  }),
  variables: z.record(z.string(), z.string()),
  status: z.enum(OUTCOMES),
  error: z.string().nullable(),
  providerMessageId: z.string().nullable(),
  at: z.string(),
});
const RecordedRequest = z.object({
  method: z.string(),
  path: z.string(),
  operationId: z.string().nullable(),
  query: z.record(z.string(), z.string()),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).meta({ description: 'Names in lower case; the bearer token redacted.' }),
  status: z
    .number()
    .nullable()
    .meta({ description: 'Null when no answer was sent: the mock dropped the connection (a network fault), or the client went away first.' }),
  ended: z
    .enum(['answered', 'dropped', 'aborted'])
    .meta({ description: 'How it ended: answered; dropped by a network fault; aborted by the client while a fault held it back.' }),
  companyUuid: z
    .string()
    .nullable()
    .meta({ description: 'The company it acted for: the one an agency or admin call names, or the token’s; null when unknown.' }),
  at: z.string(),
});
const Webhook = z.looseObject({ url: z.string(), headers: z.record(z.string(), z.string()), rawBody: z.string(), status: z.number().nullable() });
const State = z
  .looseObject({})
  .meta({ description: "The company's records as the API shows them: company, orders, campaigns, customers, templates, webhooks, deliveries, events." });

interface Operation {
  method: 'get' | 'post' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  query?: Record<string, string>;
  body?: z.ZodType;
  status?: 200 | 201;
  data: z.ZodType;
}

const OPERATIONS: Operation[] = [
  { method: 'get', path: '', operationId: 'getMockInfo', summary: 'The company and its token, the admin token, the webhook secret, the seed', data: Info },
  {
    method: 'post',
    path: '/reset',
    operationId: 'reset',
    summary: 'Back to the start (optionally with another seed)',
    body: ResetBody,
    data: Info,
  },
  {
    method: 'post',
    path: '/fail',
    operationId: 'addFault',
    summary: 'Make the next call(s) of an operation fail or slow down',
    body: FaultBody,
    status: 201,
    data: Fault,
  },
  { method: 'get', path: '/faults', operationId: 'listFaults', summary: 'The live faults', data: z.array(Fault) },
  { method: 'delete', path: '/faults', operationId: 'clearFaults', summary: 'Remove every fault', data: z.array(Fault) },
  {
    method: 'post',
    path: '/seed',
    operationId: 'loadSampleData',
    summary: 'Load sample data through the API',
    body: MockDataSchema,
    status: 201,
    data: z.looseObject({}),
  },
  {
    method: 'get',
    path: '/state',
    operationId: 'getState',
    summary: "A company's state (default: the mock's company)",
    query: { uuid: 'Another company.' },
    data: State,
  },
  { method: 'get', path: '/webhooks', operationId: 'listWebhooks', summary: 'The signed webhook requests sent', data: z.array(Webhook) },
  { method: 'delete', path: '/webhooks', operationId: 'clearWebhooks', summary: 'Forget the webhook log', data: z.array(Webhook) },
  { method: 'get', path: '/clock', operationId: 'getClock', summary: "The mock's time", data: Clock },
  { method: 'post', path: '/clock', operationId: 'moveClock', summary: 'Set and/or advance a manual clock', body: ClockBody, data: Clock },
  { method: 'get', path: '/channel', operationId: 'getChannelOutcomes', summary: 'The channel outcomes set', data: Outcomes },
  {
    method: 'post',
    path: '/channel/outcomes',
    operationId: 'setChannelOutcome',
    summary: 'Set what messages to a number get',
    body: OutcomeBody,
    status: 201,
    data: Outcomes,
  },
  { method: 'delete', path: '/channel/outcomes', operationId: 'clearChannelOutcomes', summary: 'Back to the simulated outcomes', data: Outcomes },
  {
    method: 'get',
    path: '/messages',
    operationId: 'listMessages',
    summary: 'The messages campaigns sent',
    query: { campaignId: 'One campaign only.' },
    data: z.array(Message),
  },
  {
    method: 'get',
    path: '/requests',
    operationId: 'listRequests',
    summary: 'The request journal',
    query: {
      operationId: 'One operation only.',
      uuid: "One company's only: the company an agency or admin call names, or an order call's token's.",
      since: 'Only requests at or after this time: an RFC 3339 date-time such as 2026-03-01T08:00:00Z (one that does not exist is a 400 naming since).',
    },
    data: z.array(RecordedRequest),
  },
  { method: 'delete', path: '/requests', operationId: 'clearRequests', summary: 'Forget the request journal', data: z.array(RecordedRequest) },
  {
    method: 'post',
    path: '/snapshot',
    operationId: 'takeSnapshot',
    summary: 'Take a snapshot of the state (kept while the process runs)',
    body: SnapshotBody,
    status: 201,
    data: SnapshotId,
  },
  { method: 'post', path: '/restore', operationId: 'restoreSnapshot', summary: 'Go back to a snapshot', body: SnapshotId, data: SnapshotId },
];

/**
 * A JSON Schema for OpenAPI 3.1 from `schema`: named schemas (the contract's, with a meta `id`) go to
 * `components.schemas` and are referenced there.
 */
function schemaOf(schema: z.ZodType, components: Record<string, unknown>): unknown {
  const { $defs, $schema: _, ...rest } = jsonSchemaOf(schema) as Record<string, unknown> & { $defs?: Record<string, unknown> };
  const relink = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = relink(def);
  return relink(rest);
}

/** The control API's OpenAPI document. */
export function controlDocument(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const json = (schema: z.ZodType) => ({ 'application/json': { schema: schemaOf(schema, schemas) } });
  const error = {
    description: 'Bad input (an unknown field included): the message says what to change, and `issues` name the fields.',
    content: json(ErrorResponse),
  };
  // This document itself is served at GET /__mock/openapi.json.
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const path = `/__mock${op.path}`;
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      description: `${op.summary}. Answers in the API's envelope; bad input is a 400 whose message says what to change.`,
      tags: ['control'],
      ...(op.query
        ? {
            parameters: Object.entries(op.query).map(([name, description]) => ({
              name,
              in: 'query',
              required: false,
              description,
              schema: { type: 'string' },
            })),
          }
        : {}),
      ...(op.body ? { requestBody: { required: false, content: json(op.body) } } : {}),
      responses: {
        [op.status ?? 200]: {
          description: op.summary,
          content: json(z.object({ success: z.literal(true), message: z.string(), data: op.data })),
        },
        400: error,
      },
    };
  }
  sessionPaths(paths, json, error);
  return {
    openapi: '3.1.0',
    info: {
      title: 'engagekit mock control API',
      version: '1',
      contact: { name: 'engagekit maintainers' },
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The control endpoints of the engagekit mock (engagekit-mock, memory engine): reset, faults, sample data, state, webhooks, the clock (--clock manual), channel outcomes, messages, the request journal, snapshots. No token: the mock listens on loopback. Sessions: /__session/{name} is a whole mock of its own, the API and these endpoints under that prefix (/__session/{name}/__mock/...), made on its first request from the options the process was started with, ended by DELETE /__session/{name} or after an idle time (--session-idle); GET /__sessions lists the live ones. Requests without a prefix go to the default session.',
    },
    servers: [{ url: 'http://127.0.0.1:4010' }],
    // No token: the control endpoints are for tests, on loopback.
    security: [],
    tags: [
      { name: 'control', description: 'Drive the mock from a test in any language.' },
      { name: 'sessions', description: 'Mocks of their own in one process, one per test file or job (engagekit-mock).' },
    ],
    paths,
    components: { schemas },
  };
}

const Session = z.object({
  name: z.string().meta({ example: 'file-a' }),
  baseUrl: z.string().meta({ description: "The session's base URL: give it to a client as its API's.", example: 'http://127.0.0.1:4010/__session/file-a' }),
  createdAt: z.string(),
  lastRequestAt: z.string(),
  expiresAt: z.string().meta({ description: 'When it ends unless a request comes first.' }),
});

/** `GET /__sessions` and `DELETE /__session/{name}`, which the HTTP command serves beside the control API (`cli/sessions.ts`). */
function sessionPaths(paths: Record<string, Record<string, unknown>>, json: (schema: z.ZodType) => Record<string, unknown>, error: Record<string, unknown>) {
  const ok = (description: string, data: z.ZodType) => ({
    description,
    content: json(z.object({ success: z.literal(true), message: z.string(), data })),
  });
  paths['/__sessions'] = {
    get: {
      operationId: 'listSessions',
      summary: 'The live sessions',
      description: 'The live sessions, oldest first, with the most there may be at once (--max-sessions) and how long one lasts idle (--session-idle).',
      tags: ['sessions'],
      responses: {
        200: ok(
          'The live sessions',
          z.object({ sessions: z.array(Session), maxSessions: z.number().meta({ example: 100 }), idleMs: z.number().meta({ example: 900000 }) }),
        ),
        405: { description: 'Asked with another method than GET.', content: (error as { content: unknown }).content },
      },
    },
  };
  paths['/__session/{name}'] = {
    delete: {
      operationId: 'endSession',
      summary: 'End a session',
      description:
        'Ends a session: its store, clock, faults, journal, webhook log and snapshots go, and the name is free again. A request under /__session/{name}/ makes a new one. A new session past --max-sessions is refused with 429 too_many_sessions.',
      tags: ['sessions'],
      parameters: [
        {
          name: 'name',
          in: 'path',
          required: true,
          description: 'The session: 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' },
        },
      ],
      responses: {
        200: ok('The session ended', z.object({ name: z.string() })),
        400: error,
        404: { description: 'No session of that name is live.', content: (error as { content: unknown }).content },
      },
    },
  };
}

/** The method and path of every control operation the document describes, as `GET /__mock/clock`. */
export function documentedControlRoutes(): string[] {
  return OPERATIONS.map((op) => `${op.method.toUpperCase()} /__mock${op.path}`);
}
