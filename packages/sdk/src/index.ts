/**
 * @engagekit/sdk: the typed client for the engagekit API. The operator's admin client lives in
 * `@engagekit/sdk/admin`, webhook verification in `@engagekit/sdk/webhooks`, response validation
 * against the contract in `@engagekit/sdk/validate`: an app's bundle carries none of them unless it imports them.
 */

// What `client.api.agency.use()` takes, for middleware written in a module of its own: openapi-fetch's
// type, which a project can then name without openapi-fetch as its own dependency (pnpm's strict layout).
export type { Middleware } from 'openapi-fetch';
export { APIPromise, type RawResult, type WithResponse } from './api-promise.ts';
export type {
  CampaignPage,
  ClientOptions,
  CustomerPage,
  EngageClient,
  FetchLike,
  ListRequestOptions,
  Logger,
  LogLevel,
  RequestOptions,
  ResponseValidator,
  TemplatePage,
} from './client.ts';
export { createClient } from './create-client.ts';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EngageError,
  InternalServerError,
  type Issue,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.ts';
export type { ApiClient } from './internal/api-client.ts';
export type { PaginatedPage } from './internal/calls.ts';
export type { ValidatedAnswer } from './internal/request.ts';
export { type ListOptions, type Page, PagePromise } from './pagination.ts';
export type * from './types.ts';
export type { BoundToCompany, CompanyWebhookEndpoints, DeliveryPage, WebhookEndpointPage, WebhookEndpoints } from './webhook-endpoints.ts';
