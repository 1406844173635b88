import { errorAnswer, HttpError } from '@engagekit/runtime';
import { Hono } from 'hono';
import type { ZodType } from 'zod';
import type { MessageOutcome, MockMessage } from './channel.ts';
import type { MockClock } from './clock.ts';
import { ClockBody, ControlBodyError, OutcomeBody, parseControlBody, ResetBody, SnapshotBody, SnapshotId } from './control-bodies.ts';
import { controlDocument } from './control-document.ts';
import type { Fault } from './faults.ts';
import type { MockRequest, RequestFilter } from './journal.ts';
import type { LoadedData, MockData } from './sample-data.ts';
import type { MockState } from './state.ts';
import { TimeInputError } from './time-input.ts';
import type { MockWebhook } from './webhook-sink.ts';

/** The reserved path prefix of the control endpoints. */
export const CONTROL_PREFIX = '/__mock';

/** What the control endpoints drive: the mock's own methods. */
export interface ControlTarget {
  info(): Record<string, unknown>;
  reset(options?: { seed?: number | string }): Promise<void>;
  /** Registers a fault from a request's body (checked by `FaultBody`). */
  fail(input: unknown): Fault;
  faults(): unknown[];
  clearFaults(): void;
  state(companyUuid?: string): Promise<MockState>;
  webhooks: readonly MockWebhook[];
  clearWebhooks(): void;
  seed(data: MockData): Promise<LoadedData>;
  clock: MockClock;
  channel: {
    outcome(phoneNumber: string, status: MessageOutcome, options?: { reason?: string }): void;
    outcomes(): Record<string, unknown>;
    clearOutcomes(): void;
  };
  messages(filter?: { campaignId?: string }): MockMessage[];
  requests(filter?: RequestFilter): MockRequest[];
  clearRequests(): void;
  snapshot(): unknown;
  restore(snapshot: unknown): Promise<void>;
}

/** Thrown by a control call given bad input: answered 400. */
class ControlInputError extends Error {}

const envelope = (message: string, data: unknown) => ({ success: true, message, data });

/** A Hono app whose routes are under `/__mock`. */
const controlHono = () => new Hono().basePath(CONTROL_PREFIX);
type ControlApp = ReturnType<typeof controlHono>;

/** A control call's JSON body; `{}` when it is empty. */
async function bodyOf<T>(req: Request): Promise<T> {
  const text = await req.text();
  if (!text.trim()) return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ControlInputError('The body must be JSON.');
  }
}

/** A control call's JSON body checked by its strict schema (`{}` when it is empty). */
async function checkedBody<T>(req: Request, schema: ZodType<T>): Promise<T> {
  return parseControlBody(schema, await bodyOf<unknown>(req));
}

/**
 * The control endpoints under `/__mock` (no token: the mock listens on loopback):
 * `GET /__mock` (company, tokens, webhook secret), `POST /__mock/reset` `{ seed? }`,
 * `POST /__mock/fail` `{ operationId, status?, times?, delayMs?, message?, code?, retryAfter?, network? }`,
 * `GET|DELETE /__mock/faults`, `POST /__mock/seed` (sample data), `GET /__mock/state[?uuid=]`,
 * `GET|DELETE /__mock/webhooks` (the signed webhook requests sent), `GET /__mock/clock` and
 * `POST /__mock/clock` `{ set?, advance? }` (a manual clock), `GET /__mock/channel` and
 * `POST|DELETE /__mock/channel/outcomes` `{ phoneNumber, status, reason? }`,
 * `GET /__mock/messages[?campaignId=]`, `GET|DELETE /__mock/requests[?operationId=&since=&uuid=]`,
 * `POST /__mock/snapshot` (answers its `id`) and `POST /__mock/restore` `{ id }`; `GET /__mock/openapi.json`
 * describes them all (internal/control-document.ts).
 */
export function createControlApp(target: ControlTarget, requestIdOf: (request: Request) => string) {
  const app = controlHono();
  let document: Record<string, unknown> | undefined;
  app.get('/', (c) => c.json(envelope('engagekit mock', target.info())));
  app.get('/openapi.json', (c) => {
    document ??= controlDocument();
    return c.json(document);
  });
  stateRoutes(app, target);
  timeRoutes(app, target);
  journalRoutes(app, target);
  snapshotRoutes(app, target);
  answerErrors(app, requestIdOf);
  return app;
}

/** Reset, faults, sample data, state and the webhook log. */
function stateRoutes(app: ControlApp, target: ControlTarget) {
  app.post('/reset', async (c) => {
    const { seed } = await checkedBody(c.req.raw, ResetBody);
    await target.reset(seed === undefined ? {} : { seed });
    return c.json(envelope('The mock was reset.', target.info()));
  });
  app.post('/fail', async (c) => {
    const fault = target.fail(await bodyOf<unknown>(c.req.raw));
    return c.json(envelope('Fault registered.', { operationId: fault.operationId, ...fault.options, remaining: fault.remaining }), 201);
  });
  app.get('/faults', (c) => c.json(envelope('Active faults.', target.faults())));
  app.delete('/faults', (c) => {
    target.clearFaults();
    return c.json(envelope('Faults cleared.', []));
  });
  app.post('/seed', async (c) => c.json(envelope('Sample data loaded.', await target.seed(await bodyOf<MockData>(c.req.raw))), 201));
  app.get('/state', async (c) => c.json(envelope('Mock state.', await target.state(c.req.query('uuid')))));
  app.get('/webhooks', (c) =>
    c.json(
      envelope(
        'Webhooks sent.',
        target.webhooks.map(({ request: _, ...w }) => w),
      ),
    ),
  );
  app.delete('/webhooks', (c) => {
    target.clearWebhooks();
    return c.json(envelope('Webhook log cleared.', []));
  });
}

/** The clock, the channel's outcomes and the messages sent. */
function timeRoutes(app: ControlApp, target: ControlTarget) {
  const clockView = () => ({ now: target.clock.now().toISOString(), manual: target.clock.manual });
  app.get('/clock', (c) => c.json(envelope('The mock clock.', clockView())));
  app.post('/clock', async (c) => {
    const { set, advance } = await checkedBody(c.req.raw, ClockBody);
    if (set === undefined && advance === undefined) throw new ControlInputError('Give set (a time) or advance (a duration such as "2h"), or both.');
    if (set !== undefined) target.clock.set(set);
    if (advance !== undefined) await target.clock.advance(advance);
    return c.json(envelope('The mock clock moved.', clockView()));
  });
  app.get('/channel', (c) => c.json(envelope('Channel outcomes set.', { outcomes: target.channel.outcomes() })));
  app.post('/channel/outcomes', async (c) => {
    const { phoneNumber, status, reason } = await checkedBody(c.req.raw, OutcomeBody);
    target.channel.outcome(phoneNumber, status, reason === undefined ? {} : { reason });
    return c.json(envelope('Channel outcome set.', { outcomes: target.channel.outcomes() }), 201);
  });
  app.delete('/channel/outcomes', (c) => {
    target.channel.clearOutcomes();
    return c.json(envelope('Channel outcomes cleared.', { outcomes: {} }));
  });
  app.get('/messages', (c) => {
    const campaignId = c.req.query('campaignId');
    return c.json(envelope('Messages sent.', target.messages(campaignId === undefined ? {} : { campaignId })));
  });
}

/** The request journal. */
function journalRoutes(app: ControlApp, target: ControlTarget) {
  app.get('/requests', (c) => {
    const filter: RequestFilter = {};
    for (const name of ['operationId', 'since', 'uuid'] as const) {
      const value = c.req.query(name);
      if (value !== undefined) filter[name] = value;
    }
    return c.json(envelope('Requests received.', target.requests(filter)));
  });
  app.delete('/requests', (c) => {
    target.clearRequests();
    return c.json(envelope('Request journal cleared.', []));
  });
}

/** Snapshots, kept in the process by id for as long as it runs. */
function snapshotRoutes(app: ControlApp, target: ControlTarget) {
  const snapshots = new Map<string, unknown>();
  app.post('/snapshot', async (c) => {
    await checkedBody(c.req.raw, SnapshotBody);
    const id = `snap_${snapshots.size + 1}`;
    snapshots.set(id, target.snapshot());
    return c.json(envelope('Snapshot taken.', { id }), 201);
  });
  app.post('/restore', async (c) => {
    const { id } = await checkedBody(c.req.raw, SnapshotId.partial());
    const snapshot = typeof id === 'string' ? snapshots.get(id) : undefined;
    if (snapshot === undefined) {
      throw new ControlInputError(
        `id must name a snapshot taken with POST /__mock/snapshot${snapshots.size ? ` (${[...snapshots.keys()].join(', ')})` : ' (none yet)'}; got ${JSON.stringify(id ?? null)}.`,
      );
    }
    await target.restore(snapshot);
    return c.json(envelope('Snapshot restored.', { id }));
  });
}

/** A 404 naming every control endpoint, a 400 for bad input, a 500 for the rest: all in the API's error envelope. */
function answerErrors(app: ControlApp, requestIdOf: (request: Request) => string) {
  app.notFound((c) =>
    errorAnswer(
      new HttpError(
        404,
        `No control endpoint ${c.req.method} ${c.req.path}. There are: GET /__mock, POST /__mock/reset, POST /__mock/fail, GET|DELETE /__mock/faults, POST /__mock/seed, GET /__mock/state, GET|DELETE /__mock/webhooks, GET|POST /__mock/clock, GET /__mock/channel, POST|DELETE /__mock/channel/outcomes, GET /__mock/messages, GET|DELETE /__mock/requests, POST /__mock/snapshot, POST /__mock/restore, GET /__mock/openapi.json.`,
      ),
      requestIdOf(c.req.raw),
    ),
  );
  app.onError((err, c) => {
    // A time that is none names its input (`set`, `since`), as the API's 400s name their fields.
    if (err instanceof TimeInputError) {
      return errorAnswer(new HttpError(400, err.message, { issues: [{ path: err.field, message: err.problem }] }), requestIdOf(c.req.raw));
    }
    if (err instanceof ControlBodyError) return errorAnswer(new HttpError(400, err.message, { issues: err.issues }), requestIdOf(c.req.raw));
    const bad = err instanceof ControlInputError || err instanceof TypeError || err.name === 'MockDataError';
    return errorAnswer(new HttpError(bad ? 400 : 500, err.message), requestIdOf(c.req.raw));
  });
}
