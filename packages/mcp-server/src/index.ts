/**
 * @engagekit/mcp-server: an MCP server for the engagekit API, on the official MCP SDK. `engagekit-mcp`
 * runs it; this entry offers the same server to mount in a host of your own.
 */

// The SDK's types that ApiConnection reaches, so that a user's code can name them (TS2742) where
// @engagekit/sdk is not its own dependency (pnpm's strict layout).
export type { FetchLike, LogLevel } from '@engagekit/sdk';
export { type CliConfig, ConfigError, DEFAULT_HTTP_PORT, readConfig } from './config.ts';
export { type HttpServing, serveHttp } from './http.ts';
export { RehearsalUnavailableError } from './internal/rehearsal.ts';
export type { SandboxLimits } from './internal/sandbox.ts';
export {
  type ApiConnection,
  type CallRecord,
  type CrossingError,
  createEngageMcpServer,
  DEFAULT_LIMITS,
  type EngageMcpServer,
  type EngageMcpServerOptions,
  type ExecuteLimits,
  type ExecuteReport,
  type Issue,
  type LimitKind,
  type RecordedWebhook,
  type ReportedError,
  TOOL_NAMES,
  type ToolName,
} from './server.ts';
