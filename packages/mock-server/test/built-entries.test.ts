/**
 * The entries as the package ships them: the API is `@engagekit/runtime`, a dependency loaded from
 * node_modules, never a copy inside this package's dist (nor of the contract), and the built Node entry
 * answers as the app does.
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

/** Functions of the runtime and the contract: their names in a file of this dist would mean a copy. */
const OURS = [
  /\bfunction createRuntime\b/,
  /\bfunction createApp\b/,
  /\bfunction createMemoryStore\b/,
  /\bfunction defineOperation\b/,
  /\bfunction matchOperation\b/,
];

describe('the built package', () => {
  it('loads the runtime and the contract from their packages, and validates as the app does', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      status: number;
      body: { code: string; issues: { path: string; message: string }[] };
      loaded: string[];
    };
    expect(out.loaded.some((file) => /[\\/]runtime[\\/]dist[\\/]index\.cjs$/.test(file))).toBe(true);
    expect(out.loaded.some((file) => /[\\/]contract[\\/]dist[\\/]index\.cjs$/.test(file))).toBe(true);
    expect(out.status).toBe(400);
    expect(out.body.code).toBe('validation_error');
    expect(out.body.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['company_id', 'company_order_id', 'phoneNumber']));
  });

  it('carries no copy of the runtime or the contract in its dist', () => {
    const files = readdirSync(DIST).filter((file) => /\.(c?js)$/.test(file));
    expect(files.length).toBeGreaterThan(0);
    const copies = files.flatMap((file) => {
      const text = readFileSync(`${DIST}${file}`, 'utf8');
      return OURS.filter((pattern) => pattern.test(text)).map((pattern) => `${file}: ${pattern}`);
    });
    expect(copies).toEqual([]);
  });
});
