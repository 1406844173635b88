/** The two tools and the prompts: their schemas, their descriptions (what a model reads first) and their handlers. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { DocEntry, SdkMethod } from './docs-index.ts';
import type { ExecuteLimits, Executor } from './executor.ts';
import { formatHits, formatReport } from './format.ts';
import { SANDBOX_GUIDE } from './guide.ts';
import type { DocsSearch } from './search.ts';

/** The longest code `execute` takes, in characters. */
const CODE_LIMIT_CHARS = 100_000;

/** Registers `search_docs`. */
export function registerSearchDocs(server: McpServer, search: DocsSearch): void {
  const Hit = z.object({ id: z.string(), kind: z.string(), title: z.string(), methods: z.array(z.string()), example: z.string() });
  const hitOf = (entry: DocEntry) => ({
    id: entry.id,
    kind: entry.kind,
    title: entry.title,
    methods: entry.methods.map((m) => `client.${m}`),
    example: entry.example,
  });
  server.registerTool(
    'search_docs',
    {
      title: 'Search the engagekit API docs',
      description:
        "Searches the engagekit API's documentation: its operations (with the SDK method for each, its parameters, body, answer and errors, and what an error means on it), its schemas, its error codes, the rate limit, and the SDK's guides (pagination, errors, retries, webhooks). Each hit is short: the SDK method to call from execute's `client`, a typechecked example and the fields' names; ask for a hit's `id` to get its whole entry (every field, its type and constraints). Search before writing code for execute.",
      inputSchema: {
        query: z
          .string()
          .min(1)
          .max(500)
          .optional()
          .describe('What to look for, in words or as an SDK method: "schedule a campaign", "campaign report", "customers.list".'),
        id: z.string().max(200).optional().describe('A hit\'s id (e.g. "operation:createCampaign"): answers with that whole entry instead of searching.'),
        limit: z.number().int().min(1).max(10).optional().describe('How many hits to return (default 5).'),
      },
      outputSchema: { hits: z.array(Hit) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, id, limit }) => {
      if (id !== undefined) {
        const entry = search.byId(id);
        if (!entry)
          return {
            content: [{ type: 'text', text: `No entry has the id "${id}": ids are those search hits give, e.g. "operation:createCampaign".` }],
            structuredContent: { hits: [] },
            isError: true,
          };
        return { content: [{ type: 'text', text: entry.text }], structuredContent: { hits: [hitOf(entry)] } };
      }
      if (query === undefined) {
        return {
          content: [{ type: 'text', text: 'search_docs needs a query (what to look for) or an id (an entry a search gave).' }],
          structuredContent: { hits: [] },
          isError: true,
        };
      }
      const hits = search.search(query, limit ?? 5);
      return { content: [{ type: 'text', text: formatHits(query, hits) }], structuredContent: { hits: hits.map(({ entry }) => hitOf(entry)) } };
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
  replayed: z.boolean().optional(),
  inFlight: z.boolean().optional(),
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
        webhooks: z.array(z.object({ url: z.string(), type: z.string(), eventId: z.string() })).optional(),
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
      // The executor's report is bounded (--max-answer); the text and the structured content both carry it.
      const report = await o.executor.execute({ code, dryRun: dry_run ?? false, reset: reset ?? false });
      return {
        content: [{ type: 'text', text: formatReport(report, o.where, o.limits.maxAnswerChars) }],
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
  const limits = `Each run may take ${o.limits.timeMs / 1000} s, ${Math.round(o.limits.memoryBytes / 2 ** 20)} MB of memory and ${o.limits.maxCalls} API calls, and its answer holds at most ${o.limits.maxAnswerChars.toLocaleString('en-US')} characters; a breach ends it with a message saying which.`;
  const methods = o.methods.map((m) => `- client.${m.signature}: ${m.summary} (${m.httpMethod})`).join('\n');
  return `Runs code against the engagekit API through the SDK, in a sandbox. ${mode}${readOnly} ${limits}

client's methods (search_docs shows each one's parameters, answer and an example):
${methods}

${SANDBOX_GUIDE}`;
}

/** Registers the prompts: the common tasks, each a first message that walks the tools. */
export function registerPrompts(server: McpServer, o: { target: 'api' | 'mock' }): void {
  const rehearse = o.target === 'mock' ? 'execute' : 'execute with dry_run: true';
  server.registerPrompt(
    'rehearse-campaign',
    {
      title: 'Rehearse a campaign, then run it',
      description: 'Plan a WhatsApp broadcast campaign, rehearse it on the mock with its clock, read the report, and only then create it for real.',
      argsSchema: {
        template: z.string().describe('The approved template to send, e.g. welcome.'),
        when: z.string().optional().describe('When to send, e.g. "next Friday 10:00 UTC" (default: in an hour).'),
      },
    },
    ({ template, when }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `I want to send the WhatsApp template "${template}" as a broadcast campaign ${when ? `at ${when}` : 'in an hour'}.
1. Look up campaigns.create, the template's status and the campaign report with search_docs.
2. Rehearse it: ${rehearse}, creating the campaign, moving mock.clock past its schedule and reading client.reports.get().
3. Show me what the rehearsal sent and how many messages failed, and ask me before you create the campaign for real${o.target === 'mock' ? ' (this server runs only against the mock)' : ''}.`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'campaign-failures',
    {
      title: 'Failure rate per campaign',
      description: 'Read every campaign with its report row and give the failure rate of each, worst first.',
    },
    () => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: 'Give me the failure rate of each of my campaigns, worst first. Use search_docs for reports.get and campaigns.list, then one execute run that reads the report (its campaigns_detail rows) and returns, per campaign, its name, status, messages sent and failed, and failed / sent. Read only: change nothing.',
          },
        },
      ],
    }),
  );
}
