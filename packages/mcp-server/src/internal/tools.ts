/** The two tools: their schemas, their descriptions (what a model reads first) and their handlers. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { SdkMethod } from './docs-index.ts';
import type { ExecuteLimits, Executor } from './executor.ts';
import { formatHits, formatReport } from './format.ts';
import { SANDBOX_GUIDE } from './guide.ts';
import type { DocsSearch } from './search.ts';

/** The longest code `execute` takes, in characters. */
const CODE_LIMIT_CHARS = 100_000;

/** Registers `search_docs`. */
export function registerSearchDocs(server: McpServer, search: DocsSearch): void {
  server.registerTool(
    'search_docs',
    {
      title: 'Search the engagekit API docs',
      description:
        "Searches the engagekit API's documentation: its operations (with the SDK method for each, its parameters, body, answer and errors), its schemas, its error codes and the SDK's guides (pagination, errors, retries). Every hit names the SDK method to call from execute's `client` and shows a typechecked example. Search before writing code for execute.",
      inputSchema: {
        query: z
          .string()
          .min(1)
          .max(500)
          .describe('What to look for, in words or as an SDK method: "schedule a campaign", "campaign report", "customers.list".'),
        limit: z.number().int().min(1).max(10).optional().describe('How many hits to return (default 5).'),
      },
      outputSchema: {
        hits: z.array(z.object({ id: z.string(), kind: z.string(), title: z.string(), methods: z.array(z.string()), example: z.string() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      const hits = search.search(query, limit ?? 5);
      return {
        content: [{ type: 'text', text: formatHits(query, hits) }],
        structuredContent: {
          hits: hits.map(({ entry }) => ({
            id: entry.id,
            kind: entry.kind,
            title: entry.title,
            methods: entry.methods.map((m) => `client.${m}`),
            example: entry.example,
          })),
        },
      };
    },
  );
}

/** What `execute`'s description and handler need to know of the server. */
interface ExecuteToolOptions {
  executor: Executor;
  methods: SdkMethod[];
  target: 'api' | 'mock';
  readOnly: boolean;
  limits: ExecuteLimits;
  /** The live API, as the report names it. */
  where: string;
  /** Whether a live API is configured. */
  hasApi: boolean;
}

const Call = z.object({
  operation: z.string(),
  operationId: z.string().optional(),
  method: z.string().optional(),
  page: z.number().optional(),
  status: z.number().optional(),
  requestId: z.string().optional(),
  ms: z.number(),
  error: z.string().optional(),
  note: z.string().optional(),
});

/** Registers `execute`. */
export function registerExecute(server: McpServer, o: ExecuteToolOptions): void {
  server.registerTool(
    'execute',
    {
      title: 'Run code against the engagekit API',
      description: executeDescription(o),
      inputSchema: {
        code: z
          .string()
          .max(CODE_LIMIT_CHARS)
          .describe('TypeScript or JavaScript: the body of an async function that uses `client` (and, in a rehearsal, `mock.clock`) and returns a JSON value.'),
        dry_run: z.boolean().optional().describe('true: run against the in-process mock instead of the live API (a rehearsal). Its state lasts between calls.'),
        reset: z
          .boolean()
          .optional()
          .describe('true: start the mock afresh (its sample data loaded again, its clock back at the start) before this rehearsal runs.'),
      },
      outputSchema: {
        target: z.enum(['api', 'mock']),
        ok: z.boolean(),
        result: z.unknown().optional(),
        error: z.looseObject({ name: z.string(), message: z.string() }).optional(),
        console: z.array(z.string()),
        calls: z.array(Call),
        mockTime: z.string().optional(),
      },
      annotations: {
        readOnlyHint: o.readOnly,
        destructiveHint: !o.readOnly && o.target === 'api',
        idempotentHint: false,
        openWorldHint: o.target === 'api',
      },
    },
    async ({ code, dry_run, reset }) => {
      const report = await o.executor.execute({ code, dryRun: dry_run ?? false, reset: reset ?? false });
      return {
        content: [{ type: 'text', text: formatReport(report, o.where) }],
        structuredContent: report as unknown as Record<string, unknown>,
        isError: !report.ok,
      };
    },
  );
}

/** `execute`'s description: this server's mode and limits, the client's methods, then the sandbox guide. */
function executeDescription(o: Omit<ExecuteToolOptions, 'executor'>): string {
  const mode =
    o.target === 'mock'
      ? 'This server runs every call against an in-process engagekit mock (a rehearsal): nothing reaches real customers.'
      : o.hasApi
        ? `Calls go to ${o.where} and act on real data, unless dry_run: true sends them to an in-process mock first.`
        : 'No live API is configured: pass dry_run: true to run against an in-process mock.';
  const readOnly = o.readOnly ? ' The server is read-only: only GET operations pass; a write ends the run, refused before it is sent.' : '';
  const limits = `Each run may take ${o.limits.timeMs / 1000} s, ${Math.round(o.limits.memoryBytes / 2 ** 20)} MB of memory and ${o.limits.maxCalls} API calls; a breach ends it with a message saying which.`;
  const methods = o.methods.map((m) => `- client.${m.signature}: ${m.summary} (${m.httpMethod})`).join('\n');
  return `Runs code against the engagekit API through the SDK, in a sandbox. ${mode}${readOnly} ${limits}

client's methods (search_docs shows each one's parameters, answer and an example):
${methods}

${SANDBOX_GUIDE}`;
}
