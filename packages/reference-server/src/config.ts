import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '@engagekit/contract';
import { DEFAULT_ENDPOINT_CONCURRENCY, DEFAULT_MAX_WEBHOOK_ENDPOINTS, DEFAULT_RETRY_SCHEDULE, DEFAULT_STATUS_RETENTION_MS } from '@engagekit/runtime';
import * as z from 'zod';

const bool = z.enum(['0', '1', 'true', 'false', 'yes', 'no', ''], 'must be 1 or 0 (true or false)').transform((v) => v === '1' || v === 'true' || v === 'yes');
const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be >= ${min}`).max(max, `must be <= ${max}`));
const port = int(0, 65535);

/** The process environment the server reads, validated once at start. */
const EnvSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_POOL_SIZE: int(1, 1000).default(10),
  DATABASE_POOL_WAIT_MS: int(100, 600_000).default(5000),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be one of fatal, error, warn, info, debug, trace, silent')
    .default('info'),
  RATE_LIMIT_PER_MINUTE: int(0, 1_000_000).default(DEFAULT_RATE_LIMIT_PER_MINUTE),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'must be comma-separated seconds, e.g. 0,5,300,1800,7200')
    .transform((s) => s.split(',').map((x) => Number(x.trim())))
    .default([...DEFAULT_RETRY_SCHEDULE]),
  WEBHOOK_ENDPOINT_CONCURRENCY: int(1, 1024).default(DEFAULT_ENDPOINT_CONCURRENCY),
  WEBHOOK_MAX_ENDPOINTS: int(1, 100_000).default(DEFAULT_MAX_WEBHOOK_ENDPOINTS),
  SCHEDULER_INTERVAL_MS: int(10, 3_600_000).default(1000),
  CAMPAIGN_CHUNK_SIZE: int(1, 100_000).default(1000),
  CAMPAIGN_CHUNK_CONCURRENCY: int(1, 256).default(4),
  LEASE_MS: int(1000, 600_000).default(10_000),
  AGENCY_PORT: port.optional(),
  ORDER_PORT: port.optional(),
  ADMIN_PORT: port.optional(),
  METRICS_PORT: port.optional(),
  DRAIN_DELAY_MS: int(0, 600_000).default(0),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('engagekit-reference-server'),
  DEMO_COMPANY: bool.default(true),
  CHANNEL: z.enum(['simulated', 'whatsapp'], 'must be simulated or whatsapp').default('simulated'),
  SIMULATED_FAILURE_RATE: z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a number from 0 to 1')
    .transform(Number)
    .default(0.05),
  SIMULATED_LATENCY_MS: int(0, 60_000).default(0),
  WHATSAPP_ACCESS_TOKEN: z.string().min(1).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().min(1).optional(),
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  WHATSAPP_MESSAGES_PER_SECOND: int(1, 100_000).default(80),
  WHATSAPP_RETRY_BASE_MS: int(1, 3_600_000).default(1000),
  WHATSAPP_MAX_ATTEMPTS: int(1, 100).default(5),
  WHATSAPP_STATUS_RETENTION_HOURS: int(1, 24 * 365).default(DEFAULT_STATUS_RETENTION_MS / 3_600_000),
  WHATSAPP_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://graph.facebook.com/v21.0'),
});
export type ServerConfig = z.output<typeof EnvSchema>;

/** What `CHANNEL=whatsapp` needs: sending (the token and number) and receiving its webhooks (the app secret and verify token). */
const WHATSAPP_REQUIRED = ['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const;

/** Thrown when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads and validates the server's environment. The only place that reads `process.env`.
 * Empty strings count as unset.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const picked = Object.fromEntries(Object.keys(EnvSchema.shape).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])));
  const r = EnvSchema.safeParse(picked);
  if (r.success) {
    const missing = r.data.CHANNEL === 'whatsapp' ? WHATSAPP_REQUIRED.filter((k) => !r.data[k]) : [];
    if (missing.length === 0) return r.data;
    throw new ConfigError(`Invalid environment:\n${missing.map((k) => `  ${k}: is required when CHANNEL=whatsapp`).join('\n')}`);
  }
  const lines = r.error.issues.map((i) => `  ${i.path.join('.')}=${JSON.stringify(picked[String(i.path[0])])}: ${i.message}`);
  throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
}
