/** The mock's options and their defaults, read once into the settings every part of the mock shares. */
import type { EventType } from '@engagekit/contract';
import { type AppConfig, type Clock, canonicalUuid, DEMO_COMPANY, hashToken, type Logger, silentLogger, targetCheckWithoutDns } from '@engagekit/runtime';
import { type MockData, parseMockData } from './internal/sample-data.ts';
import { readyCompanyToken } from './internal/token.ts';
import { MOCK_WEBHOOK_SECRET, type WebhookListener } from './internal/webhook-sink.ts';

/** The mock's company unless you choose another: the public docs' example company, as the reference server seeds it. */
export const DEFAULT_COMPANY = DEMO_COMPANY;

/** The admin token unless you choose another (`adminToken`, or `ADMIN_TOKEN` in HTTP mode). */
export const DEFAULT_ADMIN_TOKEN = 'engagekit-mock-admin-token';

/** The key the mock signs company tokens with unless you choose another; a mock token is worth nothing anywhere else. */
export const DEFAULT_JWT_SECRET = 'engagekit-mock-jwt-secret-not-for-production';

/**
 * The mock's setting of the runtime's webhook `retrySchedule`: seconds before each attempt, fast, so a
 * test sees a retry within a second. The runtime's own schedule (`DEFAULT_RETRY_SCHEDULE`, what the
 * reference server retries on) is not the mock's; `webhooks.retrySchedule` replaces this one.
 */
export const MOCK_RETRY_SCHEDULE = [0, 0.1, 0.3, 1];

/** Options of the mock; every one has a default. */
export interface MockApiOptions {
  /** Where your code sends agency (and admin) calls. Default `http://localhost:3000`. */
  baseUrl?: string;
  /** Where your code sends order calls. Default: `baseUrl`. */
  orderBaseUrl?: string;
  /** Makes generated ids (and so everything built from them) the same run after run; `reset()` starts the sequence again. */
  seed?: number | string;
  /** The admin token the mock accepts. Default `DEFAULT_ADMIN_TOKEN`. */
  adminToken?: string;
  /** The ready company. Default `DEFAULT_COMPANY`. */
  company?: { uuid?: string; company_id?: string; name?: string; timezone?: string };
  /** Signs company tokens (at least 32 characters). Default `DEFAULT_JWT_SECRET`. */
  jwtSecret?: string;
  /** Requests a minute per company (its tokens together); default 0, no limit. */
  rateLimitPerMinute?: number;
  /** Webhook endpoints a company may have; createWebhook answers 409 `too_many_endpoints` past it. Default 20, as on the server. */
  maxWebhookEndpoints?: number;
  /**
   * The mock's time (campaign runs, token expiry, webhook timestamps and retries). `'manual'`: a clock
   * that starts at the real time and moves only with `mock.clock.set()` and `mock.clock.advance()`,
   * which runs what falls due (and is back at its start after `reset()`). Default: the real clock, on
   * which campaigns run when due, as on the server.
   */
  clock?: Clock | 'manual';
  /** How many of the newest requests `mock.requests()` keeps. Default 1000; 0 keeps none. */
  requestLog?: number;
  /**
   * Register a webhook endpoint for the company at start and after every reset: to `url` (a receiver
   * you run, reached with the global fetch) or, without `url`, in-process to `onWebhook()` listeners.
   * Signed with `secret` (default `MOCK_WEBHOOK_SECRET`); retried on `retrySchedule` (the mock's is `MOCK_RETRY_SCHEDULE`).
   * `onWebhook` is a listener that, unlike those `mock.onWebhook()` adds, survives `reset()`.
   */
  webhooks?: { url?: string; events?: EventType[]; secret?: string; retrySchedule?: number[]; onWebhook?: WebhookListener };
  /**
   * Where webhooks go. `'send'` (the default): to an endpoint's URL over the network, unless it is the
   * mock's in-process one. `'record'`: nowhere; the mock answers every endpoint itself, as it answers its
   * in-process one. Each delivery is signed, added to `mock.webhooks` and handed to `onWebhook()`
   * listeners (a listener's Response is the answer; else 200), and nothing leaves the process, whatever
   * URL an endpoint was registered with.
   */
  webhookDelivery?: WebhookDelivery;
  /** Sample data loaded through the API at start and after every reset (`ready` resolves when it is in). */
  data?: MockData;
  /** Where the app logs (default: nowhere). */
  logger?: Logger;
  /**
   * How the mock's channel reports what became of each message. By default a message's outcome is in the
   * channel's answer: a campaign's report is complete once its run ends. With `statusDelays` the channel
   * reports as WhatsApp does: every message is answered `sent`, and its delivered, read or failed status
   * comes `deliveredMs` (a failure too) or `readMs` later on the mock's clock (with `clock: 'manual'`, as
   * `mock.clock.advance()` passes them), applied as the server applies WhatsApp's status webhooks.
   */
  channel?: { statusDelays?: { deliveredMs?: number; readMs?: number } };
}

/** Where the mock's webhooks go: over the network to each endpoint's URL (`'send'`), or only into the log (`'record'`). */
export type WebhookDelivery = 'send' | 'record';

/** The mock's company: ready at once, with a company token (agency and orders scopes, expiring in 2100). */
export interface MockCompany {
  uuid: string;
  company_id: string;
  name: string;
  token: string;
}

/** A fetch function: a URL (absolute, or a path under `baseUrl`) or a Request. */
export type MockFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The options read once, each with its default: what the parts of one mock share. */
export function settingsOf(options: MockApiOptions) {
  const baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  const orderBaseUrl = (options.orderBaseUrl ?? baseUrl).replace(/\/+$/, '');
  const adminToken = options.adminToken ?? DEFAULT_ADMIN_TOKEN;
  const jwtSecret = options.jwtSecret ?? DEFAULT_JWT_SECRET;
  if (jwtSecret.length < 32) throw new TypeError('jwtSecret must be at least 32 characters.');
  if (options.data !== undefined) parseMockData(options.data, 'The data option');
  // The endpoint is made at start through the runtime's createEndpoint, which would refuse such a URL quietly.
  const webhookUrl = options.webhooks?.url;
  const urlProblem = webhookUrl === undefined ? null : targetCheckWithoutDns(webhookUrl, true).problem;
  if (urlProblem) throw new TypeError(`webhooks.url ${urlProblem} (given ${JSON.stringify(webhookUrl)}).`);
  const webhookDelivery = options.webhookDelivery ?? 'send';
  if (webhookDelivery !== 'send' && webhookDelivery !== 'record')
    throw new TypeError(`webhookDelivery must be 'send' or 'record' (given ${JSON.stringify(options.webhookDelivery)}).`);
  for (const [key, value] of Object.entries(options.channel?.statusDelays ?? {})) {
    if (!Number.isInteger(value) || (value as number) < 0)
      throw new TypeError(`channel.statusDelays.${key} must be a whole number of milliseconds, 0 or more (given ${JSON.stringify(value)}).`);
  }
  const given = { ...DEFAULT_COMPANY, ...options.company };
  // Kept and compared in lower case, as the API compares the uuids it is given.
  const companyRecord = { ...given, uuid: canonicalUuid(given.uuid) };
  const company: MockCompany = {
    uuid: companyRecord.uuid,
    company_id: companyRecord.company_id,
    name: companyRecord.name,
    token: readyCompanyToken(jwtSecret, companyRecord.uuid),
  };
  const config: AppConfig = {
    jwtSecret,
    adminTokenHash: hashToken(adminToken),
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    webhookAllowPrivate: true,
    ...(options.maxWebhookEndpoints === undefined ? {} : { maxWebhookEndpoints: options.maxWebhookEndpoints }),
  };
  return {
    baseUrl,
    orderBaseUrl,
    adminToken,
    company,
    companyRecord,
    config,
    webhookSecret: options.webhooks?.secret ?? MOCK_WEBHOOK_SECRET,
    webhookDelivery,
    retrySchedule: options.webhooks?.retrySchedule ?? MOCK_RETRY_SCHEDULE,
    logger: options.logger ?? silentLogger,
    channel: options.channel ?? {},
  };
}
