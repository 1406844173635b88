import type { Hono, MiddlewareHandler } from 'hono';
import type { Clock } from './clock.ts';
import type { TokenService } from './http/auth.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { IdGenerator } from './ids.ts';
import type { Leases } from './leases.ts';
import type { Logger } from './logger.ts';
import type { RuntimeObserver } from './observer.ts';
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
  /**
   * The company the request acted for, as far as the app got: the one an agency or admin call names
   * once it is found, else the company of its token (an order call's); null when neither is known.
   */
  companyUuid: string | null;
}

/**
 * What a request is served from: the store it reads and writes, the ids its new records get and the
 * leases its idempotency key is held under. Hono's env of the app's requests: `app.fetch(request,
 * bindings)` serves one request from them (the mock hands each request its current store's), and a
 * request that brings none is served from those the app was made with (`AppDeps`).
 */
export interface AppBindings {
  store: Store;
  ids: IdGenerator;
  /** The instance's leases, under which the idempotency keys of requests it answers are held (renewed while it runs). */
  leases: Leases;
}

/** Everything createApp needs, passed in. */
export interface AppDeps {
  /**
   * The store a request that brings no bindings is served from (`app.fetch(request)`, as a server's
   * and a test's are). Without it, every request must bring its bindings (`app.fetch(request, bindings)`).
   */
  store?: Store;
  config: AppConfig;
  clock?: Clock;
  /** The ids of the records of a request that brings no bindings. Default: random ids. */
  ids?: IdGenerator;
  logger?: Logger;
  resolveHost?: HostResolver;
  /**
   * The leases of a request that brings no bindings (renewed while the instance runs). Default: leases
   * of the app's own over `store`, not renewed (a key's lease then lasts 10 s).
   */
  leases?: Leases;
  /**
   * Pages served beside the API (the reference server's /docs and /settings): registers them on the
   * app, each behind `pageHeaders` (the request id and CORS headers; left out of `onAnswered`).
   */
  pages?: ((app: Hono<Env>, pageHeaders: MiddlewareHandler<Env>) => void) | undefined;
  /** Hears of every API request once answered (the mock's request journal). /openapi.json and the pages are left out. */
  onAnswered?: ((answered: AnsweredRequest) => void) | undefined;
  /** Hears what the runtime does (the server's metrics): here, the 503s of an unavailable database. */
  observer?: RuntimeObserver | undefined;
  /** True while the instance drains before it stops: getReadiness answers 503 then. Default: never. */
  draining?: (() => boolean) | undefined;
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
  /** Whether the instance is draining before it stops (`AppDeps.draining`). */
  draining: boolean;
  /** A company by uuid, in any case (`canonicalUuid`), through a short-lived cache (companies never change once created). */
  company(uuid: string): Promise<CompanyRecord | null>;
  /** The rate limits of the store served (`rateLimitPerMinute`); each store's buckets start full. */
  limiter: RateLimiter;
  /** For store writes: fresh ids and this request's time. */
  write: WriteContext;
  ids: IdGenerator;
}

/**
 * The app's Hono env: what a request may bring (`c.env`: its bindings, or a platform's own such as
 * @hono/node-server's, which the app ignores), and what the middleware of a request leaves for the next
 * (read with `c.get`: `c.var` copies them all each time).
 */
export type Env = {
  Bindings: Partial<AppBindings>;
  Variables: {
    requestId: string;
    ctx: RequestContext;
    /** The operation a request named, and its JSON body once read: for `onAnswered`. */
    operationId: string;
    body: unknown;
    /** The company the request acts for, once known: for `onAnswered`. */
    companyUuid: string;
    /** Set on /openapi.json and the pages, which `onAnswered` leaves out. */
    page: boolean;
  };
};
