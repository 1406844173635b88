/**
 * The entries as the package ships them: each format's entries share its chunks, which carry the
 * runtime, the contract and the libraries they run on (one copy of each, which every entry and the
 * command load), and nothing of them comes from node_modules; msw does, and the built Node entry
 * answers as the app does.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../dist/', import.meta.url).pathname;

/** What a fresh process that requires both CommonJS entries and makes one bad call loaded, and what it was answered. */
const cjsScript = `
const core = require(${JSON.stringify(`${DIST}index.cjs`)});
const { setupMockApi, MockDataError } = require(${JSON.stringify(`${DIST}node.cjs`)});
const mock = setupMockApi({ seed: 1 });
mock
  .fetch('/api/order/addOrder', { method: 'POST', headers: { authorization: 'Bearer ' + mock.company.token, 'content-type': 'application/json' }, body: JSON.stringify({ company_id: 5 }) })
  .then(async (res) => {
    const loaded = Object.keys(require.cache).filter((file) => file.includes('node_modules'));
    console.log(JSON.stringify({ status: res.status, body: await res.json(), loaded, oneClass: core.MockDataError === MockDataError }));
    await mock.close();
  });
`;

/** The same in ES modules, through both Node entries, with the files Node loaded from node_modules. */
const esmScript = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { if (url.includes('node_modules')) loaded.push(url); return next(url, context); } });
const core = await import(${JSON.stringify(`${DIST}index.js`)});
const node = await import(${JSON.stringify(`${DIST}node.js`)});
const mock = node.setupMockApi({ seed: 1 });
const res = await mock.fetch('/api/v2/health');
console.log(JSON.stringify({ status: res.status, loaded, oneClass: core.MockDataError === node.MockDataError && core.MockNetworkError === node.MockNetworkError }));
await mock.close();
`;

/** Where the packages the mock carries would be loaded from, had an entry imported one from node_modules. */
const CARRIED = /[\\/]node_modules[\\/](@engagekit[\\/](runtime|contract)|zod|hono|jose|fast-sha256)[\\/]/;

/** Functions of the mock, the runtime, the contract, zod and jose: each is defined in one file of each format, a chunk the entries share. */
const OURS = [
  /\bfunction createRuntime\b/,
  /\bfunction createApp\b/,
  /\bfunction createMemoryStore\b/,
  /\bfunction matchOperation\b/,
  /\bfunction createMockApi\b/,
  /\bfunction parseMockData\b/,
  /\bfunction \$constructor\b/,
  /\bfunction jwtVerify\b/,
];

describe('the built package', () => {
  it('requires none of what it carries from node_modules, has one class across its CommonJS entries, and validates as the app does', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['-e', cjsScript], { encoding: 'utf8' })) as {
      status: number;
      body: { code: string; issues: { path: string; message: string }[] };
      loaded: string[];
      oneClass: boolean;
    };
    expect(out.loaded.filter((file) => CARRIED.test(file))).toEqual([]);
    expect(out.oneClass).toBe(true);
    expect(out.status).toBe(400);
    expect(out.body.code).toBe('validation_error');
    expect(out.body.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['company_id', 'company_order_id', 'phoneNumber']));
  });

  it('imports none of what it carries from node_modules, and msw from there, with one class across its ESM entries', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', esmScript], { encoding: 'utf8' })) as {
      status: number;
      loaded: string[];
      oneClass: boolean;
    };
    expect(out.status).toBe(200);
    expect(out.loaded.filter((url) => CARRIED.test(url))).toEqual([]);
    expect(out.loaded.some((url) => /[\\/]node_modules[\\/]msw[\\/]/.test(url))).toBe(true);
    expect(out.oneClass).toBe(true);
  });

  it('defines each function of what it carries once per format: every entry, the command included, shares those chunks', () => {
    for (const format of [/\.js$/, /\.cjs$/]) {
      const files = readdirSync(DIST).filter((file) => format.test(file));
      expect(files.length).toBeGreaterThan(0);
      for (const pattern of OURS) {
        const defining = files.filter((file) => pattern.test(readFileSync(`${DIST}${file}`, 'utf8')));
        expect({ pattern: String(pattern), defining: defining.length }).toEqual({ pattern: String(pattern), defining: 1 });
      }
    }
  });
});
