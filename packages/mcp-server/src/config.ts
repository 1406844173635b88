/**
 * The command's configuration: flags and environment, read and checked once, here and nowhere else.
 * A mistake is a `ConfigError` whose message says what to change.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { type EngageMcpServerOptions, TOOL_NAMES, type ToolName } from './server.ts';

/** A command line or environment that cannot run; the message says what to change. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** What `engagekit-mcp` was asked to do. */
export type CliConfig =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'serve';
      /** `stdio` (default): the protocol on stdin/stdout. `http`: Streamable HTTP on `host:port`, path `/mcp`. */
      transport: 'stdio' | 'http';
      port: number;
      host: string;
      server: EngageMcpServerOptions;
    };

/** The port `--transport http` listens on without `--port`. */
export const DEFAULT_HTTP_PORT = 3100;

/** What `engagekit-mcp --help` prints. */
export const USAGE = `engagekit-mcp: an MCP server for the engagekit API. Two tools: search_docs (the API's docs,
with the SDK method and an example for each operation) and execute (TypeScript against the SDK, run in
a WebAssembly sandbox; its calls go to the live API or, as a rehearsal, to an in-process mock).

Usage:
  engagekit-mcp [--target api|mock] [--read-only] [--tools search_docs,execute]
                [--data FILE.json] [--seed N]
                [--time-limit SECONDS] [--memory-limit MB] [--max-calls N] [--max-answer CHARS]
                [--transport stdio|http] [--port ${DEFAULT_HTTP_PORT}] [--host 127.0.0.1]

Options:
  --target        api (default): execute's calls go to the live API (the environment below);
                  mock: every call goes to an in-process mock (needs @engagekit/mock-server)
  --read-only     only GET operations pass: a write is refused before it is sent
  --tools         the tools to offer, comma-separated (default search_docs,execute);
                  --tools search_docs is a docs-only server: no code runs, no API is reached
  --data          sample data for the mock: JSON in the mock's fixture format
                  ({ templates, customers, orders, campaigns }), loaded at start and on every reset
  --seed          makes the mock's generated ids the same run after run
  --time-limit    seconds a run of execute may take, API calls included (default 30)
  --memory-limit  megabytes of memory a run may use (default 64)
  --max-calls     API calls a run may make, page fetches and retries included (default 100)
  --max-answer    the most characters a tool answer holds, errors and console included
                  (default 100000; also ENGAGEKIT_MCP_MAX_ANSWER)
  --transport     stdio (default), or http: Streamable HTTP at http://HOST:PORT/mcp
  --port          the port for --transport http (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --host          the address for --transport http (default 127.0.0.1)

Environment (the live API, for --target api):
  ENGAGEKIT_BASE_URL        the API's base URL, e.g. https://api.example.com
  ENGAGEKIT_ORDER_BASE_URL  where order calls go, when not ENGAGEKIT_BASE_URL
  ENGAGEKIT_TOKEN           the company token (from the admin API)
  ENGAGEKIT_UUID            the company UUID
  ENGAGEKIT_LOG             what the SDK logs of its calls to stderr: off (default), error, warn, info, debug
  ENGAGEKIT_MCP_MAX_ANSWER  as --max-answer (the flag wins)`;

const httpUrl = (name: string) =>
  z
    .string()
    .refine((v) => /^https?:\/\/[^\s/]+/.test(v) && URL.canParse(v), { message: `${name} must be an absolute http(s) URL, e.g. https://api.example.com` });

const Env = z.object({
  ENGAGEKIT_BASE_URL: httpUrl('ENGAGEKIT_BASE_URL').optional(),
  ENGAGEKIT_ORDER_BASE_URL: httpUrl('ENGAGEKIT_ORDER_BASE_URL').optional(),
  ENGAGEKIT_TOKEN: z.string().optional(),
  ENGAGEKIT_LOG: z.enum(['off', 'error', 'warn', 'info', 'debug'], { message: 'ENGAGEKIT_LOG must be off, error, warn, info or debug' }).optional(),
  ENGAGEKIT_UUID: z
    .string()
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
      message: 'ENGAGEKIT_UUID must be the company UUID, e.g. 53d1bcd3-aaf0-45e1-9298-5395b6a27b61',
    })
    .optional(),
});

function number(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n < min || n > max) {
    const also = flag === 'max-answer' ? ' (or ENGAGEKIT_MCP_MAX_ANSWER)' : '';
    throw new ConfigError(`--${flag}${also} must be a number from ${min} to ${max}, not "${value}".`);
  }
  return n;
}

function oneOf<T extends string>(flag: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value as T)) throw new ConfigError(`--${flag} must be ${choices.join(' or ')}, not "${value}".`);
  return value as T;
}

/**
 * Reads the command line and the environment. `readFile` reads `--data` (a parameter so tests need no files).
 *
 * @example readConfig(['--target', 'mock', '--read-only'], process.env)
 */
export function readConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): CliConfig {
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args: argv[0] === '--' ? argv.slice(1) : argv,
      strict: true,
      options: {
        target: { type: 'string' },
        'read-only': { type: 'boolean' },
        data: { type: 'string' },
        seed: { type: 'string' },
        'time-limit': { type: 'string' },
        'memory-limit': { type: 'string' },
        'max-calls': { type: 'string' },
        'max-answer': { type: 'string' },
        tools: { type: 'string' },
        transport: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  }
  try {
    parsed = parse();
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}\n\n${USAGE}`);
  }
  const { values } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const target = oneOf('target', values.target, ['api', 'mock'] as const, 'api');
  const transport = oneOf('transport', values.transport, ['stdio', 'http'] as const, 'stdio');
  if (transport === 'stdio' && (values.port !== undefined || values.host !== undefined)) {
    throw new ConfigError('--port and --host are for --transport http: add --transport http, or leave them out to serve stdio.');
  }
  const timeLimit = number('time-limit', values['time-limit'], 1, 600);
  const memoryLimit = number('memory-limit', values['memory-limit'], 8, 2048);
  const maxCalls = number('max-calls', values['max-calls'], 1, 100_000);
  const maxAnswer = number('max-answer', values['max-answer'] ?? (env.ENGAGEKIT_MCP_MAX_ANSWER || undefined), 10_000, 10_000_000);
  const tools = readTools(values.tools);

  const server: EngageMcpServerOptions = {
    target,
    readOnly: values['read-only'] ?? false,
    limits: {
      ...(timeLimit !== undefined ? { timeMs: timeLimit * 1000 } : {}),
      ...(memoryLimit !== undefined ? { memoryBytes: Math.round(memoryLimit * 2 ** 20) } : {}),
      ...(maxCalls !== undefined ? { maxCalls: Math.floor(maxCalls) } : {}),
      ...(maxAnswer !== undefined ? { maxAnswerChars: Math.floor(maxAnswer) } : {}),
    },
    ...(tools ? { tools } : {}),
  };
  if (values.seed !== undefined) server.mockSeed = /^\d+$/.test(values.seed) ? Number(values.seed) : values.seed;
  if (values.data !== undefined) {
    server.mockData = readData(values.data, readFile);
    server.mockDataSource = `--data ${values.data}`;
  }

  // A docs-only server reaches no API: it needs none of its settings.
  const api = tools && !tools.includes('execute') ? undefined : readApi(env, target);
  if (api) server.api = api;
  return {
    kind: 'serve',
    transport,
    port: number('port', values.port, 0, 65_535) ?? DEFAULT_HTTP_PORT,
    host: values.host ?? '127.0.0.1',
    server,
  };
}

/** The live API from the environment: required for `--target api`, unused by `--target mock`. */
function readApi(env: Record<string, string | undefined>, target: 'api' | 'mock'): EngageMcpServerOptions['api'] {
  const present = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('ENGAGEKIT_') && v !== undefined && v !== ''));
  const checked = Env.safeParse(present);
  if (!checked.success) throw new ConfigError(checked.error.issues.map((i) => i.message).join('\n'));
  const {
    ENGAGEKIT_BASE_URL: baseUrl,
    ENGAGEKIT_ORDER_BASE_URL: orderBaseUrl,
    ENGAGEKIT_TOKEN: token,
    ENGAGEKIT_UUID: uuid,
    ENGAGEKIT_LOG: logLevel,
  } = checked.data;
  if (target === 'mock') return undefined;
  const missing = Object.entries({ ENGAGEKIT_BASE_URL: baseUrl, ENGAGEKIT_TOKEN: token, ENGAGEKIT_UUID: uuid })
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length > 0 || !baseUrl || !token || !uuid) {
    throw new ConfigError(
      `The live API needs ${missing.join(', ')} in the environment (the API's base URL, a company token and the company UUID). Set them in the MCP client's configuration, or run with --target mock to work against an in-process mock.`,
    );
  }
  return { baseUrl, token, uuid, ...(orderBaseUrl ? { orderBaseUrl } : {}), ...(logLevel ? { logLevel } : {}) };
}

/** `--tools search_docs,execute`: the tools named, each known, none twice. */
function readTools(value: string | undefined): ToolName[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !TOOL_NAMES.includes(n as ToolName));
  if (unknown.length || names.length === 0) {
    throw new ConfigError(`--tools takes ${TOOL_NAMES.join(', ')} (comma-separated), not "${value}".`);
  }
  return TOOL_NAMES.filter((n) => names.includes(n));
}

function readData(path: string, readFile: (path: string) => string): object {
  let text: string;
  try {
    text = readFile(path);
  } catch (e) {
    throw new ConfigError(`--data ${path} cannot be read: ${(e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`--data ${path} is not JSON: ${(e as Error).message}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`--data ${path} must hold a JSON object: { "templates": [...], "customers": [...], "orders": [...], "campaigns": [...] }`);
  }
  return data;
}
