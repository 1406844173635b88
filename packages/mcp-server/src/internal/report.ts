/** What one run of `execute` comes to: the report the tool answers with, as text and as structured content. */
import type { CrossingError } from './crossing.ts';
import type { CallRecord } from './run-log.ts';

/** A webhook a rehearsal recorded (and sent nowhere), as a run's report and `mock.webhooks()` give it. */
export interface RecordedWebhook {
  /** The endpoint's URL: where the live API would send it. */
  url: string;
  /** The event's type, e.g. `order.created`. */
  type: string;
  /** The event's id. */
  eventId: string;
}

/** Which limit ended a run: told apart by type, from the sandbox's breach or the report's own bound. */
export type LimitKind = 'time' | 'memory' | 'stack' | 'deadlock' | 'calls' | 'read-only' | 'result' | 'answer';

/** An error, as the report gives it: the bridge's error type, with where it was and which limit. */
export interface ReportedError extends CrossingError {
  /** `NotFoundError`, `TypeError`, ... or `LimitExceeded`, `Refused`, `RehearsalUnavailable`. */
  name: string;
  /** Where in the code, as a line of the code. */
  line?: number;
  stack?: string;
  /** Which limit, when a limit ended the run (a refused write is `read-only`). */
  limit?: LimitKind;
}

/** What one run of `execute` comes to. */
export interface ExecuteReport {
  /** Where the code's calls went: `api` (the live API) or `mock` (a rehearsal). */
  target: 'api' | 'mock';
  /** True when the code ran to its end and returned. */
  ok: boolean;
  /** The returned value (absent when the code returned nothing or failed). */
  result?: unknown;
  error?: ReportedError;
  /** What the code printed, a line per console call. */
  console: string[];
  /** One record per API call that left the host (and mock clock move), in the order they started; those in flight at the end marked so. */
  calls: CallRecord[];
  /** In a rehearsal, the webhooks the mock recorded during the run: sent nowhere, shown here. */
  webhooks?: RecordedWebhook[];
  /** In a rehearsal, the mock's time when the run ended. */
  mockTime?: string;
}
