import { lookup } from 'node:dns/promises';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operationsAt, type Surface } from '@engagekit/contract';
import {
  type ChannelAdapter,
  createCompany,
  createRandomIds,
  createRuntime,
  createSimulatedChannel,
  createTokenService,
  DEMO_COMPANY,
  errorAnswer,
  HttpError,
  hashToken,
  inFlightForPace,
  issueToken,
  type Logger,
  randomToken,
  requestIdOf,
  systemClock,
} from '@engagekit/runtime';
import type { Store } from '@engagekit/runtime/store';
import { serve } from '@hono/node-server';
import { createWhatsAppChannel } from './campaigns/whatsapp.ts';
import { type ChannelSink, channelSink, type StatusesReceived } from './channels/sink.ts';
import { whatsappWebhookRoutes } from './channels/whatsapp-webhook.ts';
import type { ServerConfig } from './config.ts';
import { webhookBacklog } from './metrics/backlog.ts';
import { createMetrics, type ServerMetrics } from './metrics/metrics.ts';
import { type FetchHandler, scrapeOnly, timed, withAdminMetrics } from './metrics/serve.ts';
import { docsRoutes } from './pages/docs.ts';
import { settingsRoutes } from './pages/settings.ts';
import { openSqlStore, type SqlStore, type SqlStoreOptions } from './store/sql/open.ts';
import type { PoolWaitListener } from './store/sql/pool-waits.ts';
import type { Tracing } from './tracing/tracing.ts';
import { createNodeTransport } from './webhooks/node-transport.ts';

/** Scalar's browser bundle, which the build copies beside the package's code, so /docs works offline. */
function scalarBundlePath(): string | undefined {
  const path = fileURLToPath(new URL('docs/scalar.js', import.meta.url));
  return existsSync(path) ? path : undefined;
}

/** The pages, which the admin surface serves. */
const ADMIN_PAGES = /^\/(openapi\.json$|docs(\/|$)|settings(\/|$))/;

/** The surface a path belongs to: its operations', or admin for the pages; undefined for none. */
function surfaceOf(path: string): Surface | undefined {
  return operationsAt(path)[0]?.operation.surface ?? (ADMIN_PAGES.test(path) ? 'admin' : undefined);
}

/** The app restricted to one surface: other paths answer 404 in the error envelope. */
function surfaceOnly(fetch: (req: Request) => Response | Promise<Response>, surface: Surface) {
  const ids = createRandomIds();
  return (req: Request) => {
    const path = new URL(req.url).pathname;
    if (surfaceOf(path) === surface) return fetch(req);
    return errorAnswer(new HttpError(404, `No route for ${req.method} ${path} on the ${surface} port`), requestIdOf(req, ids));
  };
}

/** What a running server tells its caller. */
interface RunningServer {
  url: string;
  /** The scrape port's URL, with METRICS_PORT. */
  metricsUrl?: string;
  /**
   * Answers not ready (getReadiness 503 `draining`) for DRAIN_DELAY_MS with the listeners open, then
   * stops accepting, lets in-flight requests finish and closes the store.
   */
  close(): Promise<void>;
  notices: string[];
}

/**
 * The admin token's hash: ADMIN_TOKEN's, or the one kept in the database, generated at first start (then
 * shown once, and on the embedded database also kept in DATA_DIR/admin-token). Adds its notice.
 */
async function settleAdminToken(store: Store, config: ServerConfig, dataDir: string, notices: string[]): Promise<string> {
  if (config.ADMIN_TOKEN) {
    notices.push('Admin token: the one in ADMIN_TOKEN');
    return hashToken(config.ADMIN_TOKEN);
  }
  const candidate = `adm_${randomToken(32)}`;
  const adminTokenHash = await store.putSettingIfAbsent('admin_token_hash', hashToken(candidate));
  if (adminTokenHash !== hashToken(candidate)) {
    notices.push(
      config.DATABASE_URL ? 'Admin token: the one generated at first start (set ADMIN_TOKEN to choose one)' : `Admin token: in ${join(dataDir, 'admin-token')}`,
    );
    return adminTokenHash;
  }
  notices.push(`Admin token (generated now, shown once): ${candidate}`);
  if (!config.DATABASE_URL) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'admin-token'), `${candidate}\n`, { mode: 0o600 });
    notices.push(`  also kept in ${join(dataDir, 'admin-token')}`);
  }
  return adminTokenHash;
}

/** Makes the demo company unless it exists, and adds notices with its uuid and a 30-day token. */
async function seedDemoCompany(store: Store, tokens: ReturnType<typeof createTokenService>, notices: string[]): Promise<void> {
  const ids = createRandomIds();
  const write = { newId: ids.newId, now: new Date().toISOString() };
  if (!(await store.getCompany(DEMO_COMPANY.uuid))) {
    // Another instance may seed it at the same moment: its `company_id_taken` is harmless.
    await createCompany(store, write, DEMO_COMPANY, ids);
  }
  // Kept like every token issued, so the operator can list and revoke it.
  const { token } = await issueToken(store, tokens.sign, write, DEMO_COMPANY.uuid, { expiresInSeconds: 30 * 86_400 });
  notices.push(`Demo company: uuid ${DEMO_COMPANY.uuid}, company_id ${DEMO_COMPANY.company_id}`);
  notices.push(`Demo company token (agency and orders, 30 days): ${token}`);
}

/** The channel campaigns go through, by `CHANNEL`: WhatsApp at its pace, or the simulated one. */
function channelOf(config: ServerConfig): ChannelAdapter {
  if (config.CHANNEL !== 'whatsapp') return createSimulatedChannel({ failureRate: config.SIMULATED_FAILURE_RATE, latencyMs: config.SIMULATED_LATENCY_MS });
  return createWhatsAppChannel({
    accessToken: config.WHATSAPP_ACCESS_TOKEN as string,
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID as string,
    baseUrl: config.WHATSAPP_API_URL,
    messagesPerSecond: config.WHATSAPP_MESSAGES_PER_SECOND,
    inFlight: inFlightForPace(config.WHATSAPP_MESSAGES_PER_SECOND, config.CAMPAIGN_CHUNK_CONCURRENCY),
  });
}

/**
 * How to open the store the config names: PostgreSQL's pool, or PGlite in DATA_DIR (`failed`: it failed
 * for good). `poolWait` hears of the queries that wait for a pooled connection (the metrics).
 */
function storeOptions(config: ServerConfig, logger: Logger, dataDir: string, failed: () => void, poolWait: PoolWaitListener): SqlStoreOptions {
  if (config.DATABASE_URL) {
    return {
      databaseUrl: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      poolWaitMs: config.DATABASE_POOL_WAIT_MS,
      onPoolWait: poolWait,
      onPoolError: (err) => logger.warn({ err }, 'an idle database connection dropped; the pool reconnects'),
      onLostConnection: (err) => logger.warn({ err }, 'a database connection in use dropped; what ran on it answers 503, the pool reconnects'),
    };
  }
  return {
    dataDir: join(dataDir, 'pglite'),
    onFailure: (err) => {
      logger.error({ err }, 'the embedded database failed; stopping (exit code 1)');
      failed();
    },
  };
}

/** A listener on HOST:`port` serving `fetch`, once it listens, with its URL. */
async function listenOn(config: ServerConfig, fetch: FetchHandler, port: number) {
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const server = serve({ fetch, port, hostname: config.HOST });
  await new Promise<void>((ok, fail) => {
    server.once('listening', ok);
    server.once('error', fail);
  });
  const address = server.address();
  return { server, url: `http://${host}:${typeof address === 'object' && address ? address.port : port}` };
}

/**
 * Every listener: PORT (with /metrics for the admin token unless METRICS_PORT is set), AGENCY_PORT,
 * ORDER_PORT and ADMIN_PORT each serving one surface on a port of its own, and METRICS_PORT's scrape.
 */
async function listenAll(
  config: ServerConfig,
  served: FetchHandler,
  metrics: ServerMetrics,
  isAdminToken: (token: string) => Promise<boolean>,
  notices: string[],
) {
  const main = await listenOn(config, config.METRICS_PORT === undefined ? withAdminMetrics(served, metrics, isAdminToken) : served, config.PORT);
  const surfaces = [
    ['agency', config.AGENCY_PORT],
    ['order', config.ORDER_PORT],
    ['admin', config.ADMIN_PORT],
  ] as const;
  const extra: Awaited<ReturnType<typeof listenOn>>[] = [];
  for (const [surface, port] of surfaces) {
    if (port === undefined) continue;
    const only = await listenOn(config, surfaceOnly(served, surface), port);
    extra.push(only);
    notices.push(`${surface} API alone on ${only.url}`);
  }
  let metricsUrl: string | undefined;
  if (config.METRICS_PORT !== undefined) {
    const scrape = await listenOn(config, scrapeOnly(metrics), config.METRICS_PORT);
    extra.push(scrape);
    metricsUrl = scrape.url;
    notices.push(`metrics on ${scrape.url}/metrics`);
  }
  return { url: main.url, metricsUrl, servers: [main.server, ...extra.map((e) => e.server)] };
}

/** The server's metrics over the store it opened: the webhook backlog and the pool are read from it at each scrape. */
function metricsOver(store: Store, inFlight: () => number): ServerMetrics {
  const sql = store as Partial<SqlStore>;
  const db = sql.db;
  return createMetrics({
    ...(db && { webhookBacklog: () => webhookBacklog(db, new Date()) }),
    webhooksInFlight: inFlight,
    ...(sql.poolStats && { pool: sql.poolStats }),
  });
}

/**
 * Opens the store (migrating it), settles the secrets, seeds the demo company and listens.
 * `notices` are the lines a person needs (admin token, demo company); main.ts prints them.
 * `openStore` opens the store from the options the config gives (`openSqlStore` by default).
 * `sinkOf` gives where the channel's later reports (WhatsApp's status and template webhooks, received
 * with `CHANNEL=whatsapp`) go, over the opened store (`channelSink` by default); `received` hears of
 * the statuses of each write (the metrics). `tracing`, when the command started it, names request
 * spans, keeps each request's trace with the deliveries it queues and traces webhook attempts and channel sends.
 */
export async function startServer(
  config: ServerConfig,
  logger: Logger,
  version: string,
  openStore: (options: SqlStoreOptions) => Promise<SqlStore> = openSqlStore,
  sinkOf: (store: Store, received?: StatusesReceived) => ChannelSink = (store, received) => channelSink(store, systemClock, logger, received),
  tracing?: Tracing,
): Promise<RunningServer> {
  const dataDir = resolve(config.DATA_DIR);
  // Set once the server runs: how it stops when the embedded database fails for good.
  let stopForFailure: (() => Promise<void>) | undefined;
  // Set once the metrics exist, which read the opened store: the pool's waits until then go uncounted.
  let poolWait: PoolWaitListener = () => () => {};
  const store = await openStore(
    storeOptions(
      config,
      logger,
      dataDir,
      () => {
        process.exitCode = 1;
        void stopForFailure?.();
      },
      () => poolWait(),
    ),
  );
  const notices: string[] = [];

  const jwtSecret = config.JWT_SECRET ?? (await store.putSettingIfAbsent('jwt_secret', randomToken(48)));
  const adminTokenHash = await settleAdminToken(store, config, dataDir, notices);
  if (config.DEMO_COMPANY) await seedDemoCompany(store, createTokenService(jwtSecret, adminTokenHash), notices);

  const bundle = scalarBundlePath();
  // Set once the runtime exists: the dispatcher's attempts in flight, read at each scrape.
  let inFlight = () => 0;
  const metrics = metricsOver(store, () => inFlight());
  poolWait = metrics.poolWait;
  const sink = config.CHANNEL === 'whatsapp' ? sinkOf(store, metrics.statusesReceived) : undefined;
  let draining = false;
  // It checks every address it connects to, in its connections' own DNS lookup (DNS rebinding cannot slip past).
  const webhookTransport = createNodeTransport({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
  const channel = metrics.channel(channelOf(config), config.CHANNEL === 'whatsapp' ? config.WHATSAPP_MESSAGES_PER_SECOND : null);
  const runtime = createRuntime({
    store,
    config: {
      jwtSecret,
      adminTokenHash,
      rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
      webhookAllowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      maxWebhookEndpoints: config.WEBHOOK_MAX_ENDPOINTS,
      // WhatsApp sends only templates it approved: a campaign on one it refused would fail every message.
      requireUsableTemplates: config.CHANNEL === 'whatsapp',
      version,
    },
    logger,
    observer: tracing ? { ...metrics.observer, traceContext: tracing.traceContext } : metrics.observer,
    draining: () => draining,
    resolveHost: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
    pages: (app, pageHeaders) => {
      docsRoutes(app, pageHeaders, bundle ? () => readFileSync(bundle, 'utf8') : undefined);
      settingsRoutes(app, pageHeaders);
      if (sink) {
        whatsappWebhookRoutes(app, pageHeaders, {
          appSecret: config.WHATSAPP_APP_SECRET as string,
          verifyToken: config.WHATSAPP_VERIFY_TOKEN as string,
          applyStatuses: sink.applyStatuses,
          applyTemplateUpdates: sink.applyTemplateUpdates,
          logger,
        });
      }
    },
    channel: tracing ? tracing.channel(channel) : channel,
    webhooks: {
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      transport: tracing ? tracing.transport(webhookTransport) : webhookTransport,
    },
    campaigns: {
      intervalMs: config.SCHEDULER_INTERVAL_MS,
      chunkSize: config.CAMPAIGN_CHUNK_SIZE,
      concurrency: config.CAMPAIGN_CHUNK_CONCURRENCY,
      statusRetentionMs: config.WHATSAPP_STATUS_RETENTION_HOURS * 3_600_000,
      retry: { baseMs: config.WHATSAPP_RETRY_BASE_MS, maxAttempts: config.WHATSAPP_MAX_ATTEMPTS },
    },
    leaseMs: config.LEASE_MS,
  });
  await runtime.start();
  inFlight = () => runtime.dispatcher.inFlight;

  const { isAdminToken } = createTokenService(jwtSecret, adminTokenHash);
  const { url, metricsUrl, servers } = await listenAll(config, timed(runtime.app.fetch, metrics, tracing?.nameRequest), metrics, isAdminToken, notices);
  const closeNow = async () => {
    await Promise.all(servers.map((server) => new Promise<void>((ok) => server.close(() => ok()))));
    await runtime.close();
    // The receivers' kept-alive connections, once no attempt is under way.
    webhookTransport.close();
  };
  stopForFailure = async () => {
    // Nothing can be answered any more: end open connections rather than wait for them.
    for (const server of servers) (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await closeNow();
  };
  const close = async () => {
    // A load balancer reads getReadiness's 503 and stops sending before the listeners close.
    draining = true;
    if (config.DRAIN_DELAY_MS > 0) await new Promise((r) => setTimeout(r, config.DRAIN_DELAY_MS));
    await closeNow();
  };
  return { url, ...(metricsUrl && { metricsUrl }), notices, close };
}
