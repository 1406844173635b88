/**
 * The Node entry as the package ships it carries the parts of zod and the contract it uses: loading it
 * loads neither package (zod's entry would load its 64 locales), and it still answers as the app does.
 * The `mock.load.vs-msw` row measures what that saves each test file of a partner's suite.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../dist/', import.meta.url).pathname;

/** What a fresh process that requires the CommonJS Node entry and makes one bad call loaded, and what it was answered. */
const script = `
const { setupMockApi } = require(${JSON.stringify(`${DIST}node.cjs`)});
const mock = setupMockApi({ seed: 1 });
mock
  .fetch('/api/order/addOrder', { method: 'POST', headers: { authorization: 'Bearer ' + mock.company.token, 'content-type': 'application/json' }, body: JSON.stringify({ company_id: 5 }) })
  .then(async (res) => {
    console.log(JSON.stringify({ status: res.status, body: await res.json(), loaded: Object.keys(require.cache) }));
    await mock.close();
  });
`;

describe('the built Node entry', () => {
  it('loads neither zod nor the contract package, and validates as the app does', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      status: number;
      body: { code: string; issues: { path: string; message: string }[] };
      loaded: string[];
    };
    expect(out.loaded.filter((file) => /[\\/](zod|@engagekit[\\/]contract|contract[\\/]dist)[\\/]/.test(file))).toEqual([]);
    expect(out.status).toBe(400);
    expect(out.body.code).toBe('validation_error');
    expect(out.body.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['company_id', 'company_order_id', 'phoneNumber']));
  });

  it('imports neither package from its ES modules', () => {
    const specifiers = readdirSync(DIST)
      .filter((file) => file.endsWith('.js') && file !== 'cli.js')
      .flatMap((file) => [...readFileSync(`${DIST}${file}`, 'utf8').matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]));
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => s === 'zod' || s?.startsWith('zod/') || s?.startsWith('@engagekit/contract'))).toEqual([]);
  });
});
