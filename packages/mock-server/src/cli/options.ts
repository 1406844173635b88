import { parseArgs } from 'node:util';

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
}

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

Environment:
  ADMIN_TOKEN     the admin token to accept (default: engagekit-mock-admin-token)

Control endpoints (memory engine): GET /__mock, POST /__mock/reset, POST /__mock/fail, GET|DELETE /__mock/faults,
POST /__mock/seed, GET /__mock/state, GET|DELETE /__mock/webhooks, GET|POST /__mock/clock, GET /__mock/channel,
POST|DELETE /__mock/channel/outcomes, GET /__mock/messages, GET|DELETE /__mock/requests, POST /__mock/snapshot,
POST /__mock/restore. See the package README.`;

function integer(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new CliUsageError(`--${name} must be a whole number from ${min} to ${max}, not "${value}".`);
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
  };
}
