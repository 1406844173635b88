/**
 * @engagekit/mock-server: a stateful mock of the engagekit API. Use `@engagekit/mock-server/node`
 * (`setupMockApi`) in Node tests, `@engagekit/mock-server/browser` (`setupMockWorker`) in a web app,
 * or the `engagekit-mock` bin for an HTTP port. This entry holds the runtime-neutral core.
 */

// The runtime's types that `mock.store`, `mock.snapshot()`, `mock.clock` and the options reach, so that a
// user's code can name them (TS2742) where @engagekit/runtime is not its own dependency (pnpm's strict
// layout). Three are renamed where a name means something else beside the mock: MessageOutcome is the
// mock channel's, and Logger and Page are the SDK's too, with other shapes.
export type { Clock, Logger as MockLogger, SendFailure, SendResult } from '@engagekit/runtime';
export type {
  AttemptOutcome,
  CampaignMessageTotals,
  CampaignPort,
  CampaignRecord,
  CampaignRunPort,
  CampaignStatusPatch,
  CampaignSummary,
  ClaimedChunk,
  ClaimedDelivery,
  CompanyPort,
  CustomerPort,
  CustomerRecord,
  DeliveryRecord,
  DeliveryTaker,
  DispatchPort,
  EndpointRecord,
  EventRecord,
  FailuresOfCode,
  IdempotencyPort,
  IdempotentBegin,
  KeptStatusPort,
  KeptStatusRecord,
  LeasePort,
  Lock,
  LockMode,
  MemorySnapshot,
  MessageDeferral,
  MessageOutcome as StoreMessageOutcome,
  MessageRecord,
  MessageTotals,
  OrderPort,
  OrderRecord,
  Page as StorePage,
  PageRequest,
  PhoneOrders,
  RunChunk,
  SendPacePort,
  SendSlotsTaken,
  SettingsPort,
  SlotStamp,
  StatusesWritten,
  StatusWrite,
  Store,
  TemplatePort,
  TemplateRecord,
  TemplateReview,
  TokenPort,
  TokenRecord,
  TokenRevocations,
  WebhookPort,
} from '@engagekit/runtime/store';
export type { ChannelState, MessageOutcome, MockChannelOptions, MockMessage } from './internal/channel.ts';
export { type MockClock, parseDuration } from './internal/clock.ts';
export { controlDocument } from './internal/control-document.ts';
export type { Fault, FaultOptions } from './internal/faults.ts';
export { MockNetworkError } from './internal/faults.ts';
export type { MockRequest, RequestFilter } from './internal/journal.ts';
export { type LoadedData, type MockData, MockDataError, MockDataSchema, mockDataJsonSchema } from './internal/sample-data.ts';
export type { MockState } from './internal/state.ts';
export {
  MOCK_WEBHOOK_SECRET,
  MOCK_WEBHOOK_URL,
  type MockWebhook,
  type WaitForWebhookOptions,
  type WebhookListener,
} from './internal/webhook-sink.ts';
export {
  createMockApi,
  DEFAULT_ADMIN_TOKEN,
  DEFAULT_COMPANY,
  DEFAULT_JWT_SECRET,
  MOCK_RETRY_SCHEDULE,
  MockApi,
  type MockApiOptions,
  type MockCompany,
  type MockFetch,
  type MockSnapshot,
  type WebhookDelivery,
} from './mock-api.ts';
