/**
 * What the code in execute cannot do, each attempt ending with a message a person (or a model) can act
 * on: reach the host (process, require, import(), fetch, the Function constructor), run forever,
 * allocate without bound, recurse without bound, make too many API calls, or write in read-only mode.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Connected, campaignIn, connect } from './helpers.ts';

let mcp: Connected;
let shortTime: Connected;
let readOnly: Connected;
beforeAll(async () => {
  mcp = await connect({ target: 'mock' });
  // A short time limit keeps the cases of endless runs short (the endless loops, and the allocation that
  // grows, which may end at either limit). Only they run under it: load could end any other run on time
  // rather than on the limit its case is about.
  shortTime = await connect({ target: 'mock', limits: { timeMs: 1_500 } });
  readOnly = await connect({ target: 'mock', readOnly: true });
});
afterAll(async () => {
  await mcp.close();
  await shortTime.close();
  await readOnly.close();
});

const SANDBOX_OFFERS = 'The sandbox offers `client`, `console` and, in a rehearsal, `mock.clock`';

describe('the sandbox', () => {
  it.each([
    ['process', 'return process.env.ENGAGEKIT_TOKEN', "ReferenceError: 'process' is not defined"],
    ['require', "return require('node:fs').readFileSync('/etc/passwd', 'utf8')", "ReferenceError: 'require' is not defined"],
    ['import()', "const fs = await import('node:fs'); return fs.readdirSync('/')", "could not load module 'node:fs'"],
    ['globalThis.fetch', "return await globalThis.fetch('http://127.0.0.1:9/')", 'TypeError: not a function'],
    ['fetch', "return await fetch('http://127.0.0.1:9/')", "ReferenceError: 'fetch' is not defined"],
    ['setTimeout', 'await new Promise((r) => setTimeout(r, 10))', "ReferenceError: 'setTimeout' is not defined"],
  ])('refuses %s with a message naming what it offers instead', async (_name, code, expected) => {
    const run = await mcp.execute(code);
    expect(run.isError).toBe(true);
    expect(run.ok).toBe(false);
    expect(`${run.error?.name}: ${run.error?.message}`).toContain(expected);
    expect(run.error?.message).toContain(SANDBOX_OFFERS);
    expect(run.calls).toEqual([]);
  });

  it('refuses a static import: the code is the body of a function', async () => {
    const run = await mcp.execute("import fs from 'node:fs';\nreturn fs");
    expect(run.error?.name).toBe('SyntaxError');
    expect(run.error?.line).toBe(1);
  });

  it('lets constructor chains reach only the sandbox’s own global', async () => {
    const run = await mcp.execute(`
      const viaFunction = (function () {}).constructor('return this')();
      const viaAsync = await (async function () {}).constructor('return this')();
      const viaEval = (0, eval)('this');
      const viaArrow = (() => {}).constructor.constructor('return globalThis')();
      return [viaFunction, viaAsync, viaEval, viaArrow].map((g) => ({
        same: g === globalThis,
        process: typeof g.process,
        require: typeof g.require,
        fetch: typeof g.fetch,
        names: Object.getOwnPropertyNames(g).filter((k) => !/^[A-Z]/.test(k)).sort(),
      }));
    `);
    expect(run.isError, run.text).toBe(false);
    const names = [
      'client',
      'console',
      'decodeURI',
      'decodeURIComponent',
      'encodeURI',
      'encodeURIComponent',
      'escape',
      'eval',
      'globalThis',
      'isFinite',
      'isNaN',
      'mock',
      'parseFloat',
      'parseInt',
      'undefined',
      'unescape',
    ];
    for (const seen of run.result as unknown[]) expect(seen).toEqual({ same: true, process: 'undefined', require: 'undefined', fetch: 'undefined', names });
  });

  it('cannot reach the host functions behind client, nor change client', async () => {
    const run = await mcp.execute(`
      const before = client.campaigns.get;
      try { client.campaigns.get = () => 'mine'; } catch (e) { }
      try { globalThis.client = {}; } catch (e) { }
      return { same: client.campaigns.get === before, host: typeof globalThis.host, source: String(client.campaigns.get).includes('host.call') };
    `);
    expect(run.result).toEqual({ same: true, host: 'undefined', source: false });
  });

  it('ends an endless loop at the time limit', async () => {
    const run = await shortTime.execute('let i = 0;\nwhile (true) { i++; }');
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'time' });
    expect(run.error?.message).toContain('The code ran out of time: a run may take 1.5 s');
  });

  it('ends an endless loop that catches what interrupts it', async () => {
    const run = await shortTime.execute('for (;;) { try { while (true) {} } catch (e) { } }');
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'time' });
  });

  it('ends a 1 GB allocation at the memory limit', async () => {
    const run = await mcp.execute('const big = new Uint8Array(1024 * 1024 * 1024);\nreturn big.length;');
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'memory' });
    expect(run.error?.message).toContain('The code ran out of memory: a run may use 64 MB');
  });

  it('ends an allocation that grows without bound at the memory limit', async () => {
    const run = await shortTime.execute('const rows = [];\nfor (;;) rows.push({ name: "x".repeat(1024) + rows.length });');
    expect(run.error?.limit).toMatch(/^(memory|time)$/);
  });

  it('ends unbounded recursion with a message, and the next run works', async () => {
    const run = await mcp.execute('function deeper(n) { return deeper(n + 1) + 1; }\nreturn deeper(0);');
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'stack' });
    expect((await mcp.execute('return 1 + 1')).result).toBe(2);
  });

  it('stops at the 101st API call', async () => {
    const run = await mcp.execute(`
      for (let i = 0; i < 101; i++) await client.campaigns.list({ limit: 1 });
      return 'not reached';
    `);
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'calls' });
    expect(run.error?.message).toContain('a run may make 100 API calls');
    expect(run.calls).toHaveLength(100);
    expect(run.result).toBeUndefined();
  });

  it('says so when the code waits for what nothing will settle', async () => {
    const run = await mcp.execute('await new Promise(() => {});');
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'deadlock' });
  });

  it('refuses a returned value too large for the assistant to read, within the answer’s maximum', async () => {
    const run = await mcp.execute("return 'x'.repeat(300_000);");
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'answer' });
    expect(run.error?.message).toContain('The returned value is 300,002 characters of JSON; an answer may hold 100,000 (--max-answer)');
    expect(run.result).toBeUndefined();
  });

  it('ends a run that runs out of memory building its result with the limit, and prints nothing', async () => {
    const small = await connect({ target: 'mock', limits: { memoryBytes: 8 * 2 ** 20 } });
    const printed: string[] = [];
    const spies = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(process.stderr, 'write')];
    for (const spy of spies) spy.mockImplementation(((line: unknown) => void printed.push(String(line))) as never);
    try {
      const run = await small.execute("const a = []; for (let i = 0; i < 200; i++) a.push({ i, s: 'y'.repeat(20_000) + i }); return a;");
      expect(run.error?.name).toBe('LimitExceeded');
      expect(printed.filter((l) => /Abort/i.test(l))).toEqual([]);
      expect((await small.execute('return 1')).result).toBe(1);
    } finally {
      for (const spy of spies) spy.mockRestore();
      await small.close();
    }
  });

  it('names what was called when it is not a function', async () => {
    const run = await mcp.execute('const x = 1;\nreturn client.campaigns.nope();');
    expect(run.error).toMatchObject({ name: 'TypeError', line: 2 });
    expect(run.error?.message).toContain('not a function: return client.campaigns.nope();');
    expect(run.error?.message).toContain("execute's description lists the client's methods");
    expect(run.error?.message).not.toContain('fetch');
  });

  it('says a request that could not be built was not sent, and lists no call', async () => {
    const run = await mcp.execute(`await client.campaigns.create(${campaignIn("'crlf'")}, { idempotencyKey: 'a\\r\\nb' });`);
    expect(run.error?.name).toBe('EngageError');
    expect(run.error?.message).toMatch(/^Could not build the request, so nothing was sent: /);
    expect(run.calls).toEqual([]);
  });

  it('reports a returned value that is not JSON', async () => {
    const run = await mcp.execute('const a: { self?: unknown } = {};\na.self = a;\nreturn a;');
    expect(run.error?.message).toContain('The returned value is not JSON');
  });
});

describe('--read-only', () => {
  it('refuses a write before it leaves the host, naming the operation, and ends the run', async () => {
    const run = await readOnly.execute(`
      const before = (await client.campaigns.list()).total;
      try { await client.campaigns.create(${campaignIn("'sneaky'")}); } catch (e) { return 'caught and carried on'; }
      return before;
    `);
    expect(run.error).toMatchObject({ name: 'Refused', limit: 'read-only' });
    expect(run.error?.message).toContain('client.campaigns.create (POST /agency/createCampaign, createCampaign) is a write');
    expect(run.calls.map((c) => [c.operation, c.status ?? c.error])).toEqual([
      ['campaigns.list', 200],
      ['campaigns.create', 'refused: read-only'],
    ]);
    const after = await readOnly.execute('return (await client.campaigns.list()).total');
    expect(after.result).toBe(0);
  });

  it('says so in the tool description and annotations', async () => {
    const { tools } = await readOnly.client.listTools();
    const execute = tools.find((t) => t.name === 'execute');
    expect(execute?.description).toContain('The server is read-only');
    expect(execute?.annotations?.readOnlyHint).toBe(true);
  });
});
