import { parseArgs } from 'node:util';
import { parseDuration } from '../internal/duration.ts';

/** How the memory engine serves over HTTP. */
export interface ServeOptions {
  port: number;
  host: string;
  seed: number | string | undefined;
  adminToken: string | undefined;
  webhookUrl: string | undefined;
  dataFile: string | undefined;
  rateLimitPerMinute: number;
  /** A clock that moves only through POST /__mock/clock. */
  manualClock: boolean;
  /** Where webhooks go: to their URLs (`send`, the default) or only into the log (`record`). */
  webhookDelivery: 'send' | 'record' | undefined;
  /** A session ends this long after its last request (milliseconds). */
  sessionIdleMs: number;
  /** Sessions live at once. */
  maxSessions: number;
}

/** A session ends after this long without a request, unless --session-idle or MOCK_SESSION_IDLE say otherwise. */
export const DEFAULT_SESSION_IDLE = '15m';
/** Sessions live at once, unless --max-sessions or MOCK_MAX_SESSIONS say otherwise. */
export const DEFAULT_MAX_SESSIONS = 100;

/** What `engagekit-mock` was asked to do. */
export type CliCommand = { kind: 'help' } | { kind: 'init'; publicDir: string } | ({ kind: 'serve'; engine: 'memory' | 'prism' } & ServeOptions);

/** A command line or environment that cannot run; the message says what to change. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export const USAGE = `engagekit-mock: the engagekit API, mocked (the reference app on an in-memory store).

Usage:
  engagekit-mock [--port 4010] [--host 127.0.0.1] [--seed N] [--engine memory|prism]
                 [--webhook-url URL] [--data FILE.json] [--rate-limit N] [--clock real|manual]
                 [--webhook-delivery send|record] [--session-idle 15m] [--max-sessions 100]
  engagekit-mock init <publicDir>     copy MSW's mockServiceWorker.js into a web app's public directory

Options:
  --port          port to listen on (default 4010; 0 picks a free one)
  --host          address to listen on (default 127.0.0.1)
  --seed          makes generated ids deterministic; POST /__mock/reset starts the sequence again
  --engine        memory (default): stateful, the reference app itself
                  prism: @stoplight/prism-cli serving openapi.yaml's examples (an optional peer dependency)
  --webhook-url   register a webhook endpoint for the ready company (signed with the mock's webhook secret)
  --data          sample data to load (JSON: { templates, customers, orders, campaigns }), again on every reset
  --rate-limit    requests a minute per company (default 0: no limit)
  --clock         real (default): campaigns run when due; manual: time moves only with POST /__mock/clock
                  { "advance": "2h" } (which runs what falls due) or { "set": "2026-01-05T09:00:00Z" }
  --webhook-delivery  send (default): webhooks go to their endpoints' URLs; record: only into the log
  --session-idle  a session (/__session/{name}/...) ends this long after its last request (default 15m;
                  '90s', '30m', '2h' or milliseconds)
  --max-sessions  sessions live at once (default 100); a new one past it is refused with 429 too_many_sessions

Environment:
  ADMIN_TOKEN        the admin token to accept (default: engagekit-mock-admin-token)
  MOCK_SESSION_IDLE  as --session-idle (the flag wins)
  MOCK_MAX_SESSIONS  as --max-sessions (the flag wins)

Control endpoints (memory engine): GET /__mock, POST /__mock/reset, POST /__mock/fail, GET|DELETE /__mock/faults,
POST /__mock/seed, GET /__mock/state, GET|DELETE /__mock/webhooks, GET|POST /__mock/clock, GET /__mock/channel,
POST|DELETE /__mock/channel/outcomes, GET /__mock/messages, GET|DELETE /__mock/requests, POST /__mock/snapshot,
POST /__mock/restore. Under /__session/{name}/__mock, the same for one session; GET /__sessions lists the live
sessions and DELETE /__session/{name} ends one. See the package README.`;

/** `value` as a whole number from `min` to `max`; `name` is a flag's (`port`: `--port`) or an environment variable's (`MOCK_MAX_SESSIONS`). */
function integer(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new CliUsageError(`${/^[A-Z_]+$/.test(name) ? name : `--${name}`} must be a whole number from ${min} to ${max}, not "${value}".`);
  return Number(value);
}

/**
 * Reads the command line (a leading `--`, as `pnpm start -- --port 4010` passes it, is skipped) and
 * the environment. The only place the bin reads either.
 */
export function parseCli(argv: string[], env: Record<string, string | undefined>): CliCommand {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        engine: { type: 'string' },
        'webhook-url': { type: 'string' },
        data: { type: 'string' },
        'rate-limit': { type: 'string' },
        clock: { type: 'string' },
        'webhook-delivery': { type: 'string' },
        'session-idle': { type: 'string' },
        'max-sessions': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  }
  try {
    parsed = parse();
  } catch (e) {
    throw new CliUsageError(`${(e as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals[0] === 'init') {
    if (!positionals[1]) throw new CliUsageError('init needs the directory to copy the worker into, e.g. engagekit-mock init public');
    return { kind: 'init', publicDir: positionals[1] };
  }
  if (positionals.length > 0) throw new CliUsageError(`Unknown command "${positionals[0]}".\n\n${USAGE}`);
  const engine = values.engine ?? 'memory';
  if (engine !== 'memory' && engine !== 'prism') throw new CliUsageError(`--engine must be memory or prism, not "${engine}".`);
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) throw new CliUsageError('ADMIN_TOKEN must be at least 16 characters.');
  if (values['webhook-url'] !== undefined && !/^https?:\/\/[^\s]+$/.test(values['webhook-url']))
    throw new CliUsageError('--webhook-url must be an http(s) URL.');
  const clock = values.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual') throw new CliUsageError(`--clock must be real or manual, not "${clock}".`);
  const webhookDelivery = values['webhook-delivery'];
  if (webhookDelivery !== undefined && webhookDelivery !== 'send' && webhookDelivery !== 'record')
    throw new CliUsageError(`--webhook-delivery must be send or record, not "${webhookDelivery}".`);
  if (engine === 'prism' && (values['session-idle'] !== undefined || values['max-sessions'] !== undefined))
    throw new CliUsageError('--session-idle and --max-sessions are the memory engine’s: the prism engine has no sessions.');
  const idle = values['session-idle'] ?? env.MOCK_SESSION_IDLE ?? DEFAULT_SESSION_IDLE;
  const idleSource = values['session-idle'] !== undefined ? '--session-idle' : 'MOCK_SESSION_IDLE';
  let sessionIdleMs: number;
  try {
    sessionIdleMs = parseDuration(/^\d+$/.test(idle) ? Number(idle) : idle);
  } catch {
    throw new CliUsageError(`${idleSource} must be a duration such as 90s, 30m or 2h (or milliseconds), not "${idle}".`);
  }
  if (sessionIdleMs < 1000) throw new CliUsageError(`${idleSource} must be at least 1s, not "${idle}".`);
  const maxSessions = values['max-sessions'] ?? env.MOCK_MAX_SESSIONS;
  const seed = values.seed;
  return {
    kind: 'serve',
    engine,
    port: values.port === undefined ? 4010 : integer('port', values.port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    seed: seed === undefined ? undefined : /^\d+$/.test(seed) ? Number(seed) : seed,
    adminToken,
    webhookUrl: values['webhook-url'],
    dataFile: values.data,
    rateLimitPerMinute: values['rate-limit'] === undefined ? 0 : integer('rate-limit', values['rate-limit'], 0, 1_000_000),
    manualClock: clock === 'manual',
    webhookDelivery,
    sessionIdleMs,
    maxSessions:
      maxSessions === undefined
        ? DEFAULT_MAX_SESSIONS
        : integer(values['max-sessions'] !== undefined ? 'max-sessions' : 'MOCK_MAX_SESSIONS', maxSessions, 0, 100_000),
  };
}
