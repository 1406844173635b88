import type { Hono, MiddlewareHandler } from 'hono';
import type { Clock } from './clock.ts';
import type { TokenService } from './http/auth.ts';
import type { IdGenerator } from './ids.ts';
import type { Leases } from './leases.ts';
import type { Env as AppEnv } from './routes/register.ts';
import type { Store } from './store/ports.ts';
import type { CompanyRecord, WriteContext } from './store/types.ts';

/** Settings of the app itself (a process's own settings, such as the reference server's environment, live with it). */
export interface AppConfig {
  /** HS256 key for company JWTs, at least 32 characters. */
  jwtSecret: string;
  /** Hex SHA-256 of the admin token. */
  adminTokenHash: string;
  /** Requests a minute per company (its tokens together) and for the admin token; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Allow loopback and private webhook targets (tests, development). */
  webhookAllowPrivate: boolean;
  /** Webhook endpoints a company may have; createWebhook answers 409 `too_many_endpoints` past it. Default `DEFAULT_MAX_WEBHOOK_ENDPOINTS` (20). */
  maxWebhookEndpoints?: number;
  /**
   * createCampaign refuses (400 `template_not_usable`) a template the company never submitted or whose
   * every submission is rejected, paused, disabled or failed: a channel that sends real templates. Default false.
   */
  requireUsableTemplates?: boolean;
  /** Check every answer against the contract and fail loudly when it breaks it (tests). */
  validateResponses?: boolean;
  /** The version /api/v2/health reports. */
  version?: string;
}

/** Minimal structured logger (pino fits). */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Resolves a host name to its addresses, to check webhook targets (DNS in Node; none elsewhere). */
export type HostResolver = (host: string) => Promise<string[]>;

/** An API operation the app answered: what was asked, and the status given. */
export interface AnsweredRequest {
  request: Request;
  /** The contract's operation, or null when the request named none (a 404 or 405). */
  operationId: string | null;
  /** The JSON body as sent, once read (undefined when the operation takes none or it was not JSON). */
  body: unknown;
  status: number;
  /** The request's time on the app's clock. */
  at: Date;
}

/** Everything createApp needs, passed in. */
export interface AppDeps {
  store: Store;
  config: AppConfig;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  resolveHost?: HostResolver;
  /**
   * The instance's leases, under which the idempotency keys of requests it answers are held (renewed
   * while it runs). Default: leases of the app's own, not renewed (a key's lease then lasts 10 s).
   */
  leases?: Leases;
  /**
   * Pages served beside the API (the reference server's /docs and /settings): registers them on the
   * app, each behind `pageHeaders` (the request id and CORS headers; left out of `onAnswered`).
   */
  pages?: ((app: Hono<AppEnv>, pageHeaders: MiddlewareHandler<AppEnv>) => void) | undefined;
  /** Hears of every API request once answered (the mock's request journal). /openapi.json and the pages are left out. */
  onAnswered?: ((answered: AnsweredRequest) => void) | undefined;
}

/** What a handler gets about the request it serves. */
export interface RequestContext {
  store: Store;
  config: AppConfig;
  tokens: TokenService;
  logger: Logger;
  resolveHost: HostResolver | undefined;
  leases: Leases;
  requestId: string;
  now: Date;
  /** A company by uuid, in any case (`canonicalUuid`), through a short-lived cache (companies never change once created). */
  company(uuid: string): Promise<CompanyRecord | null>;
  /** For store writes: fresh ids and this request's time. */
  write: WriteContext;
  ids: IdGenerator;
}
