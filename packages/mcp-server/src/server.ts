/** `createEngageMcpServer`: the engagekit MCP server's two tools, `search_docs` and `execute`, over one shared engine. */
import { createClient, type FetchLike, type LogLevel } from '@engagekit/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DEFAULT_MAX_ANSWER_CHARS } from './internal/bound.ts';
import type { BridgeTarget } from './internal/bridge.ts';
import { loadDocsIndex } from './internal/docs-index.ts';
import { type ExecuteLimits, Executor } from './internal/executor.ts';
import { Rehearsal } from './internal/rehearsal.ts';
import { Sandbox } from './internal/sandbox.ts';
import { DocsSearch } from './internal/search.ts';
import { registerExecute, registerPrompts, registerSearchDocs } from './internal/tools.ts';

export type { CrossingError, Issue } from './internal/crossing.ts';
export type { ExecuteLimits } from './internal/executor.ts';
export type { ExecuteReport, LimitKind, RecordedWebhook, ReportedError } from './internal/report.ts';
export type { CallRecord } from './internal/run-log.ts';

/** The live API the code's calls go to. */
export interface ApiConnection {
  /** The API's base URL (`ENGAGEKIT_BASE_URL`). */
  baseUrl: string;
  /** Where order calls go when they have a host of their own (`ENGAGEKIT_ORDER_BASE_URL`); defaults to `baseUrl`. */
  orderBaseUrl?: string;
  /** The company token (`ENGAGEKIT_TOKEN`). */
  token: string;
  /** The company UUID (`ENGAGEKIT_UUID`). */
  uuid: string;
  /** The fetch calls go through; `globalThis.fetch` by default. */
  fetch?: FetchLike;
  /** What the SDK logs of its calls, to stderr (`ENGAGEKIT_LOG`): `'off'` by default, since each run's report lists its calls. */
  logLevel?: LogLevel;
}

/** Options of `createEngageMcpServer`. */
export interface EngageMcpServerOptions {
  /**
   * Where `execute` runs: `'api'` (default), the live API of `api`; or `'mock'`, an in-process engagekit
   * mock (needs `@engagekit/mock-server`). A call with `dry_run: true` runs on the mock either way.
   */
  target?: 'api' | 'mock';
  /** The live API. Without it, only rehearsals run. */
  api?: ApiConnection;
  /** Only GET operations pass the bridge: a write is refused, naming the operation, before anything is sent. Default false. */
  readOnly?: boolean;
  /** Sample data for the mock, in its fixture format (`{ templates, customers, orders, campaigns }`): loaded at start and on every reset. */
  mockData?: object;
  /** Where `mockData` came from, for messages (e.g. `--data fixtures.json`). */
  mockDataSource?: string;
  /** Makes the mock's generated ids the same run after run. */
  mockSeed?: number | string;
  /** Limits of each run; unset ones keep their defaults (`DEFAULT_LIMITS`). */
  limits?: Partial<ExecuteLimits>;
  /**
   * The tools offered: both by default. `['search_docs']` makes a docs-only server, which runs no code
   * and reaches no API (and offers no prompts, which need `execute`).
   */
  tools?: readonly ToolName[];
}

/** The tools a server can offer. */
export type ToolName = 'search_docs' | 'execute';

/** Every tool, in the order tools/list gives them. */
export const TOOL_NAMES: readonly ToolName[] = ['search_docs', 'execute'];

/**
 * Each run's limits unless told otherwise: 30 s of wall time, 64 MB of heap, 100 API calls, answers of
 * at most 100,000 characters, and 5 s for calls still in flight when a run ends.
 */
export const DEFAULT_LIMITS: Readonly<ExecuteLimits> = Object.freeze({
  timeMs: 30_000,
  memoryBytes: 64 * 2 ** 20,
  maxCalls: 100,
  maxAnswerChars: DEFAULT_MAX_ANSWER_CHARS,
  settleMs: 5_000,
});

/** The engagekit MCP server: one engine (docs, sandbox, mock), any number of protocol connections. */
export interface EngageMcpServer {
  /** The package version the server reports. */
  readonly version: string;
  /** A new MCP server with the two tools, over this engine: one per connection (each HTTP session has its own). */
  createServer(): McpServer;
  /** Connects a new MCP server to `transport` and resolves to it. */
  connect(transport: Transport): Promise<McpServer>;
  /**
   * Loads what a run needs ahead of the first one: the sandbox's WebAssembly, the live API's company
   * (which rehearsals then act as) and, when the target is the mock or sample data is given, the mock
   * with its data. Rejects with a message for a person when the mock cannot be had (not installed, or
   * its data does not load).
   */
  start(): Promise<void>;
  /** Closes every connection made by `connect` and stops the mock. */
  close(): Promise<void>;
}

/**
 * Creates the engine behind the `engagekit-mcp` command.
 *
 * @example
 * import { createEngageMcpServer } from '@engagekit/mcp-server';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * const engage = createEngageMcpServer({ target: 'mock', readOnly: false });
 * await engage.start();
 * await engage.connect(new StdioServerTransport());
 */
export function createEngageMcpServer(options: EngageMcpServerOptions = {}): EngageMcpServer {
  const index = loadDocsIndex();
  const target = options.target ?? 'api';
  const readOnly = options.readOnly ?? false;
  const limits: ExecuteLimits = { ...DEFAULT_LIMITS, ...stripUndefined(options.limits ?? {}) };
  const tools = new Set(options.tools ?? TOOL_NAMES);
  const sandbox = new Sandbox();
  const liveCompany = options.api ? once(() => readCompany(options.api as ApiConnection)) : undefined;
  const rehearsal = new Rehearsal({
    version: index.version,
    ...(liveCompany ? { company: liveCompany } : {}),
    ...(options.mockData ? { data: options.mockData } : {}),
    ...(options.mockDataSource ? { dataSource: options.mockDataSource } : {}),
    ...(options.mockSeed !== undefined ? { seed: options.mockSeed } : {}),
  });
  const api = options.api ? apiTarget(options.api) : undefined;
  const executor = new Executor({ sandbox, methods: index.methods, api, rehearsal, defaultTarget: target, readOnly, limits });
  const search = new DocsSearch(index);
  const where = options.api ? `the live API at ${options.api.baseUrl}` : 'the live API';
  const servers = new Set<McpServer>();

  const createServer = () => {
    const server = new McpServer(
      { name: 'engagekit', title: 'engagekit', version: index.version },
      {
        instructions: `Tools for the engagekit customer-engagement API (WhatsApp templates, broadcast campaigns, customers, orders, reports, webhook endpoints). Look a task up with search_docs, then write TypeScript against the SDK's \`client\` and run it with execute.${
          target === 'mock'
            ? ' Every run goes to an in-process mock: nothing reaches real customers.'
            : ' Runs go to the live API; pass dry_run: true to rehearse on an in-process mock first.'
        }${readOnly ? ' The server is read-only: only GET operations pass.' : ''}`,
      },
    );
    if (tools.has('search_docs')) registerSearchDocs(server, search);
    if (tools.has('execute')) {
      registerExecute(server, { executor, methods: index.methods, target, readOnly, limits, where, hasApi: api !== undefined });
      registerPrompts(server, { target });
    }
    return server;
  };

  return {
    version: index.version,
    createServer,
    async connect(transport) {
      const server = createServer();
      servers.add(server);
      server.server.onclose = () => servers.delete(server);
      await server.connect(transport);
      return server;
    },
    async start() {
      if (!tools.has('execute')) return;
      await Promise.all([sandbox.warm(), liveCompany?.()]);
      if (target === 'mock' || options.mockData) await rehearsal.mock();
    },
    async close() {
      await Promise.all([...servers].map((s) => s.close()));
      await rehearsal.close();
    },
  };
}

function apiTarget(api: ApiConnection): BridgeTarget {
  const fetch: FetchLike = api.fetch ?? ((url, init) => globalThis.fetch(url, init));
  return {
    clientOptions: {
      baseUrl: api.baseUrl,
      ...(api.orderBaseUrl ? { orderBaseUrl: api.orderBaseUrl } : {}),
      token: api.token,
      uuid: api.uuid,
      // Lines go to stderr: on stdio, stdout is the protocol's.
      logger: stderrLogger,
      logLevel: api.logLevel ?? 'off',
    },
    fetch,
  };
}

const stderrLogger = {
  error: (line: string) => process.stderr.write(`${line}\n`),
  warn: (line: string) => process.stderr.write(`${line}\n`),
  info: (line: string) => process.stderr.write(`${line}\n`),
  debug: (line: string) => process.stderr.write(`${line}\n`),
};

/**
 * The live API's company, as rehearsals hold it: read once with the token (`client.company.get()`).
 * Undefined, and said on stderr, when it cannot be read (a token without the `agency` scope, an API
 * that is down or older): rehearsals then act as the mock's demo company.
 */
async function readCompany(api: ApiConnection): Promise<{ uuid: string; company_id: string; name: string; timezone?: string } | undefined> {
  const { fetch, logLevel: _, ...rest } = api;
  try {
    const company = await createClient({ ...rest, ...(fetch ? { fetch } : {}), maxRetries: 0, timeout: 10_000 }).company.get();
    return { uuid: company.uuid, company_id: company.company_id, name: company.name, ...(company.timezone ? { timezone: company.timezone } : {}) };
  } catch (e) {
    process.stderr.write(
      `engagekit-mcp: could not read the live company (${(e as Error).message}); rehearsals act as the mock's demo company, so code that names a company_id may act differently live.\n`,
    );
    return undefined;
  }
}

/** `fn`, called at most once: later calls share its promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => {
    p ??= fn();
    return p;
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
