/**
 * @engagekit/runtime: the engagekit API's behaviour, with no database driver and no docs UI. The
 * contract-driven app (`createApp`), the domain rules behind it, the Store interface and the memory
 * store, the webhook dispatcher and the campaign scheduler, put together by `createRuntime`. The
 * reference server runs it on PostgreSQL or PGlite; the mock runs it on the memory store. Everything
 * here runs anywhere fetch and Web Crypto do (Node, browsers, workers).
 */
export { type App, createApp } from './app.ts';
export { createScheduler, type Scheduler, type SchedulerOptions } from './campaigns/scheduler.ts';
export { type Clock, createManualClock, systemClock } from './clock.ts';
export type { AnsweredRequest, AppBindings, AppConfig, AppDeps, Env as AppEnv, HostResolver, RequestContext } from './context.ts';
export { DEMO_COMPANY } from './demo-company.ts';
export type { RetrySettings } from './domain/campaign-runs.ts';
export {
  type ChannelAdapter,
  type ChannelStatus,
  createSimulatedChannel,
  type OutboundMessage,
  type SendResult,
  SIMULATED_FAILURE,
  type SimulatedChannelOptions,
  simulatedFate,
  simulatedMessageId,
  type TemplateStatusUpdate,
} from './domain/channel.ts';
export { applyChannelStatuses, DEFAULT_STATUS_RETENTION_MS, type StatusesApplied } from './domain/channel-statuses.ts';
export { type CompanyCreation, createCompany, type NewCompany } from './domain/companies.ts';
export { type CompanyHoldings, companyHoldings } from './domain/company-holdings.ts';
export type { RenderedTemplate } from './domain/render.ts';
export { newWebhookSecret, randomToken } from './domain/secrets.ts';
export type { SendFailure } from './domain/send-failures.ts';
export { inFlightForPace, PAIR_GAP_MS, type Pace } from './domain/send-pace.ts';
export { applyTemplateStatus } from './domain/templates.ts';
export { issueToken, type RevocationCheck, type TokenRequest } from './domain/tokens.ts';
export {
  createEndpoint,
  DEFAULT_MAX_WEBHOOK_ENDPOINTS,
  type EndpointCreation,
  type NewEndpoint,
  type TargetPolicy,
} from './domain/webhook-endpoints.ts';
export { resolvedAddressProblem, targetCheckWithoutDns, urlHostProblem, WebhookTargetError } from './domain/webhook-target.ts';
export { type AnswerOptions, errorAnswer, jsonAnswer } from './http/answer.ts';
export {
  bearerToken,
  type CompanyClaims,
  type CompanyTokenClaims,
  createTokenService,
  hashToken,
  signCompanyToken,
  type TokenService,
  type TokenServiceOptions,
} from './http/auth.ts';
export { readBodyBytes } from './http/body.ts';
export { errorBody, HttpError } from './http/errors.ts';
export { presentCampaign, presentCustomer, presentDelivery, presentEndpoint, presentOrder, presentTemplate } from './http/present.ts';
export type { RateLimiter } from './http/rate-limit.ts';
export { requestIdOf } from './http/request-id.ts';
export { REVOCATIONS_REFRESH_MS } from './http/revocation-cache.ts';
export { canonicalUuid, createRandomIds, createSeededIds, type IdGenerator, resumeSeededIds, type SeededIds } from './ids.ts';
export type { Leases } from './leases.ts';
export { type Logger, silentLogger } from './logger.ts';
export type { LeasedWork, RunEnd, RuntimeObserver } from './observer.ts';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime.ts';
export { copy } from './store/copy.ts';
export { createMemoryStore, type MemorySnapshot, type MemoryStore } from './store/memory/store.ts';
export type { Store } from './store/ports.ts';
export { createDispatcher, DEFAULT_ENDPOINT_CONCURRENCY, type Dispatcher, type DispatcherOptions } from './webhooks/dispatcher.ts';
export { DEFAULT_RETRY_SCHEDULE } from './webhooks/retry.ts';
export { EXCERPT_BYTES, fetchTransport, type WebhookAnswer, type WebhookPost, type WebhookTransport } from './webhooks/transport.ts';
