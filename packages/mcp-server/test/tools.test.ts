/**
 * The two tools through the official MCP client over an in-memory transport, on the mock: what
 * tools/list shows, search_docs, and a rehearsal from campaign to report.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connected, campaignIn, connect, SHOP_DATA } from './helpers.ts';

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect({ target: 'mock', mockData: SHOP_DATA, mockSeed: 1 });
});
afterAll(() => mcp.close());

describe('tools/list', () => {
  it('answers with search_docs and execute, execute describing the client and the rehearsal mode', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_docs', 'execute']);
    const execute = tools.find((t) => t.name === 'execute');
    expect(execute?.description).toContain('client.campaigns.create(body)');
    expect(execute?.description).toContain('in-process engagekit mock');
    expect(execute?.inputSchema.properties).toHaveProperty('code');
    expect(execute?.inputSchema.properties).toHaveProperty('dry_run');
    expect(execute?.inputSchema.properties).toHaveProperty('reset');
  });
});

describe('search_docs', () => {
  const search = async (query: string, limit?: number) =>
    (await mcp.client.callTool({ name: 'search_docs', arguments: { query, ...(limit ? { limit } : {}) } })) as CallToolResult & {
      structuredContent: { hits: { id: string; methods: string[]; example: string }[] };
    };

  it('finds campaigns.create for "schedule a campaign", with its typechecked example', async () => {
    const result = await search('schedule a campaign');
    const [first] = result.structuredContent.hits;
    expect(first?.id).toBe('operation:createCampaign');
    expect(first?.methods).toEqual(['client.campaigns.create']);
    expect(first?.example).toContain('await client.campaigns.create({');
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('### client.campaigns.create(body): Create a campaign');
    expect(text).toContain('`schedule_type`');
    expect(text).toContain('The whole entry: search_docs with id "operation:createCampaign".');
    expect(text.length).toBeLessThan(5 * 2_000);
  });

  it('answers an id with the whole entry: every field and what each error means there', async () => {
    const result = await mcp.client.callTool({ name: 'search_docs', arguments: { id: 'operation:createCampaign' } });
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toContain('409 conflict (ConflictError)');
    expect(text).toContain('- 409 here: a campaign with this name already exists');
    const unknown = await mcp.client.callTool({ name: 'search_docs', arguments: { id: 'operation:nope' } });
    expect(unknown.isError).toBe(true);
  });

  it('answers from schemas, error codes and the SDK guide, each hit naming a method and an example', async () => {
    expect((await search('campaign report messages read')).structuredContent.hits.map((h) => h.id)).toContain('operation:reportingCampaign');
    expect((await search('rate limited')).structuredContent.hits[0]?.id).toBe('error:429');
    expect((await search('advance the mock clock')).structuredContent.hits[0]?.id).toBe('guide:execute');
    for (const hit of (await search('campaign', 10)).structuredContent.hits) {
      expect(hit.methods.length).toBeGreaterThan(0);
      expect(hit.example).toMatch(/client\.|mock\./);
    }
  });

  it('says what to try when nothing matches', async () => {
    const result = await search('zzzz qqqq');
    expect(result.structuredContent.hits).toEqual([]);
    expect((result.content[0] as { text: string }).text).toContain('Nothing in the docs matches');
  });
});

describe('execute on the mock', () => {
  it('creates a campaign, advances the clock, and reads a report that counts its messages', async () => {
    // The simulated channel's outcomes follow each message's key (ids and the run's time): with the
    // seeded ids and the clock set, they are the same every run, and none of the two fails.
    const run = await mcp.execute(`
      mock.clock.set('2026-05-04T13:00:00Z');
      const campaign = await client.campaigns.create(${campaignIn("'Friday sale'")});
      console.log('scheduled', campaign.name, campaign.status);
      await mock.clock.advance('2h');
      const report = await client.reports.get();
      const row = report.campaigns_detail.find((c: { id: string }) => c.id === campaign.id);
      return { status: (await client.campaigns.get(campaign.id)).status, messages: report.messages.total, row };
    `);
    expect(run.isError, run.text).toBe(false);
    expect(run.target).toBe('mock');
    expect(run.result).toMatchObject({ status: 'completed', messages: 2 });
    expect(run.console).toEqual(['scheduled Friday sale scheduled']);
    expect(run.calls.map((c) => [c.operation, c.status])).toEqual([
      ['mock.clock.set', undefined],
      ['campaigns.create', 201],
      ['mock.clock.advance', undefined],
      ['reports.get', 200],
      ['campaigns.get', 200],
    ]);
    expect(run.calls[1]).toMatchObject({ operationId: 'createCampaign', method: 'POST', requestId: expect.stringMatching(/^req_/) });
    expect(run.text).toContain('campaigns.create POST createCampaign -> 201 (request req_');
  });

  it('keeps the mock between calls, pages lists through the bridge, and starts afresh on reset', async () => {
    const created = await mcp.execute(`for (const name of ['a', 'b', 'c']) await client.campaigns.create(${campaignIn('name')});`);
    expect(created.calls.map((c) => c.status)).toEqual([201, 201, 201]);
    const listed = await mcp.execute(`
      const names = [];
      for await (const c of client.campaigns.list({ limit: 2 })) names.push(c.name);
      const first = await client.campaigns.list({ limit: 2 });
      const second = await first.getNextPage();
      return { names, pages: [first.page, second.page], total: first.total, more: first.hasNextPage(), some: await client.campaigns.list().toArray({ max: 1 }) };
    `);
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.result).toMatchObject({ pages: [1, 2], more: true });
    const names = (listed.result as { names: string[] }).names;
    expect(names.slice(-3)).toEqual(['a', 'b', 'c']);
    expect(listed.calls.filter((c) => c.operation === 'campaigns.list').every((c) => c.status === 200 && c.page !== undefined)).toBe(true);

    const afresh = await mcp.execute('return (await client.campaigns.list()).total', { reset: true });
    expect(afresh.result).toBe(0);
    const customers = await mcp.execute('return (await client.customers.list()).total');
    expect(customers.result).toBe(2);
  });

  it('gives typed SDK errors back with their class, code, issues and request id', async () => {
    const run = await mcp.execute(
      `await client.campaigns.create({ name: '', schedule_type: 'once', schedule: 'soon', template_payload: { template_name: 'welcome' } });`,
    );
    expect(run.isError).toBe(true);
    expect(run.error).toMatchObject({ name: 'BadRequestError', status: 400, code: 'validation_error', operation: 'campaigns.create', line: 1 });
    expect(run.error?.requestId).toMatch(/^req_/);
    expect(run.error?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'name' })]));
    expect(run.text).toContain('Failed: BadRequestError (400 validation_error)');

    const caught = await mcp.execute(`
      try { await client.campaigns.get('cmp_missing'); } catch (e) { return { name: e.name, status: e.status, isError: e instanceof Error }; }
    `);
    expect(caught.result).toEqual({ name: 'NotFoundError', status: 404, isError: true });
    const withResponse = await mcp.execute('const r = await client.customers.list().then((p) => p.data.length); return r');
    expect(withResponse.result).toBe(2);
  });

  it('takes TypeScript, strips its types, and names the line of a syntax error', async () => {
    const typed = await mcp.execute(
      'interface Row { n: number }\nconst rows: Row[] = [{ n: 1 }, { n: 2 }];\nreturn rows.reduce((a: number, r: Row) => a + r.n, 0) satisfies number;',
    );
    expect(typed.result).toBe(3);
    const broken = await mcp.execute('const a = 1;\nconst b = ;');
    expect(broken.error).toMatchObject({ name: 'SyntaxError', line: 2 });
    expect(broken.calls).toEqual([]);
  });
});

describe('tools and prompts', () => {
  it('offers only search_docs with tools: [search_docs], and no prompts', async () => {
    const docs = await connect({ tools: ['search_docs'] });
    try {
      expect((await docs.client.listTools()).tools.map((t) => t.name)).toEqual(['search_docs']);
      const capabilities = docs.client.getServerCapabilities();
      expect(capabilities?.prompts).toBeUndefined();
    } finally {
      await docs.close();
    }
  });

  it('offers prompts for the common tasks, each a first message that walks the tools', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['rehearse-campaign', 'campaign-failures']);
    const rehearse = await mcp.client.getPrompt({ name: 'rehearse-campaign', arguments: { template: 'welcome' } });
    const text = (rehearse.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
    expect(text).toContain('"welcome"');
    expect(text).toContain('mock.clock');
  });
});
