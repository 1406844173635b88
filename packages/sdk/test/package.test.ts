/**
 * The built package as users get it: it loads with require and import, the main entry stays within its
 * size budget and free of zod, the contract and Node built-ins, and the .d.ts files stand alone (the
 * contract's `paths` types inlined). publint and arethetypeswrong run on every package in `pnpm lint:packages`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDir } from '../../../scripts/build/ensure-built.ts';
import { bundleSize, MAIN_BUDGET_BYTES } from '../scripts/bundle-size.ts';

const SDK_DIR = packageDir('sdk');
const DIST_DIR = join(SDK_DIR, 'dist');

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: SDK_DIR, encoding: 'utf8' });

/** A Node 20 binary, the oldest the SDK supports (fresh machines have one on PATH as /usr/bin/node). */
const NODE20_CANDIDATE = process.env.NODE20_PATH ?? '/usr/bin/node';
const NODE20 = (() => {
  try {
    return execFileSync(NODE20_CANDIDATE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).startsWith('20.') ? NODE20_CANDIDATE : undefined;
  } catch {
    return undefined;
  }
})();

const bundle = (entry: string) => bundleSize(DIST_DIR, entry);

describe('the built package', () => {
  it('loads with require (CommonJS) and import (ESM), with every export', () => {
    const script = `
      const sdk = require('@engagekit/sdk'); const wh = require('@engagekit/sdk/webhooks'); const v = require('@engagekit/sdk/validate');
      const admin = require('@engagekit/sdk/admin');
      const c = sdk.createClient({ baseUrl: 'http://127.0.0.1:1', token: 't', uuid: 'u' });
      const a = admin.createAdminClient({ baseUrl: 'http://127.0.0.1:1', adminToken: 'a' });
      console.log(JSON.stringify([typeof c.campaigns.list, typeof sdk.NotFoundError, typeof wh.verifyWebhook, typeof v.validateResponse, typeof a.companies.list]));`;
    expect(JSON.parse(node(['-e', script]))).toEqual(['function', 'function', 'function', 'function', 'function']);
    const esm = `
      const sdk = await import('@engagekit/sdk'); const wh = await import('@engagekit/sdk/webhooks'); const v = await import('@engagekit/sdk/validate');
      console.log(JSON.stringify(Object.keys(sdk).sort()), typeof wh.signWebhook, typeof v.ResponseValidationError);`;
    const [keys, ...rest] = node(['--input-type=module', '-e', esm]).trim().split(' ');
    expect(rest).toEqual(['function', 'function']);
    expect(JSON.parse(keys ?? '[]')).toEqual(
      [
        'APIConnectionError',
        'APIError',
        'APIPromise',
        'APITimeoutError',
        'APIUserAbortError',
        'AuthenticationError',
        'BadRequestError',
        'ConflictError',
        'EngageError',
        'InternalServerError',
        'NotFoundError',
        'PagePromise',
        'PermissionDeniedError',
        'RateLimitError',
        'createClient',
      ].sort(),
    );
  });

  it('makes real calls from the built code, and its errors are recognised by another copy of the package', () => {
    // The CJS and ESM builds are two copies of every class: exactly the situation of two installed versions.
    const script = `
      const { createRequire } = await import('node:module');
      const cjs = createRequire(process.cwd() + '/')('@engagekit/sdk');
      const esm = await import('@engagekit/sdk');
      const fetch = async (req) => new Response(JSON.stringify({ success: false, code: 'not_found', message: 'nope', requestId: 'req_1' }), { status: 404 });
      const client = cjs.createClient({ baseUrl: 'http://api.test', token: 't', uuid: 'u', fetch });
      const err = await client.campaigns.get('x').catch((e) => e);
      console.log(JSON.stringify({ name: err.name, instanceofOther: err instanceof esm.NotFoundError, isOther: esm.NotFoundError.is(err),
        apiIsOther: esm.APIError.is(err), conflictIsOther: esm.ConflictError.is(err), requestId: err.requestId }));`;
    expect(JSON.parse(node(['--input-type=module', '-e', script]))).toEqual({
      name: 'NotFoundError',
      instanceofOther: false,
      isOther: true,
      apiIsOther: true,
      conflictIsOther: false,
      requestId: 'req_1',
    });
  });

  it('uses the globalThis.fetch of the moment of each call, not of createClient (in a child process: no global patched here)', () => {
    const script = `
      const { createClient } = await import('@engagekit/sdk');
      const client = createClient({ baseUrl: 'http://api.test', token: 't', uuid: 'u', maxRetries: 0 });
      globalThis.fetch = async (url) => new Response(JSON.stringify({ success: true, message: 'ok', data: { seen: new URL(url).pathname } }),
        { status: 200, headers: { 'x-request-id': 'req_late' } });
      const r = await client.reports.get().withResponse();
      console.log(JSON.stringify({ data: r.data, requestId: r.requestId }));`;
    expect(JSON.parse(node(['--input-type=module', '-e', script]))).toEqual({ data: { seen: '/agency/reportingCampaign' }, requestId: 'req_late' });
  });

  it('creates no signal, sets no timer and fetches nothing while its entries load (workerd refuses those in global scope)', () => {
    const script = `
      const used = [];
      for (const name of ['AbortController', 'setTimeout', 'setInterval', 'fetch']) {
        const real = globalThis[name];
        globalThis[name] = new Proxy(real, { apply: (t, self, args) => (used.push(name), Reflect.apply(t, self, args)),
          construct: (t, args) => (used.push(name), Reflect.construct(t, args)) });
      }
      await import('@engagekit/sdk');
      await import('@engagekit/sdk/admin');
      await import('@engagekit/sdk/webhooks');
      await import('@engagekit/sdk/validate');
      console.log(JSON.stringify(used));`;
    expect(JSON.parse(node(['--input-type=module', '-e', script]))).toEqual([]);
  });
  describe.skipIf(!NODE20)(`on Node 20${NODE20 ? '' : ` (skipped: no Node 20 at ${NODE20_CANDIDATE}; set NODE20_PATH)`}`, () => {
    it('loads both formats, calls through a fetch and verifies a webhook', () => {
      const script = `
        const sdk = require('@engagekit/sdk'); const wh = require('@engagekit/sdk/webhooks');
        (async () => {
          const esm = await import('@engagekit/sdk');
          const fetch = async () => new Response(JSON.stringify({ success: true, message: 'ok', data: { id: 'cmp_1' } }), { status: 201 });
          const campaign = await sdk.createClient({ baseUrl: 'http://api.test', token: 't', uuid: 'u', fetch }).campaigns.get('cmp_1');
          const body = '{"test": 2432232314}';
          const headers = await wh.signWebhook(body, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330 });
          const verdict = await wh.verifyWebhook(body, headers, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', { now: 1614265330000 }).catch((e) => e.code);
          console.log(JSON.stringify([process.versions.node.split('.')[0], typeof esm.createClient, campaign.id, headers['webhook-signature'], verdict]));
        })();`;
      const out = execFileSync(NODE20 as string, ['-e', script], { cwd: SDK_DIR, encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual(['20', 'function', 'cmp_1', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 'invalid_payload']);
    });
  });

  it(`keeps the main entry within ${MAIN_BUDGET_BYTES} bytes minified and gzipped, with all it can load`, async () => {
    const main = await bundle('index.js');
    console.log(`@engagekit/sdk main entry: ${main.gzipped} bytes min+gz (budget ${MAIN_BUDGET_BYTES})`);
    // What an app pays: openapi-fetch, which every call goes through, and webhook verification, which
    // `webhooks.unwrap` imports dynamically, are in the bundle.
    expect(main.inputs.filter((i) => i.includes('openapi-fetch'))).toHaveLength(1);
    expect(main.inputs.some((i) => i.endsWith('dist/webhooks.js'))).toBe(true);
    expect(main.gzipped).toBeLessThanOrEqual(MAIN_BUDGET_BYTES);
  });

  it('pulls neither zod nor the contract into the main or webhooks entry (and no Node built-ins: they build for the browser)', async () => {
    for (const entry of ['index.js', 'webhooks.js']) {
      const { inputs } = await bundle(entry);
      expect(
        inputs.filter((i) => /zod|contract|node:/.test(i)),
        entry,
      ).toEqual([]);
    }
  });

  it('ships .d.ts files that import nothing but each other and openapi-fetch', () => {
    const imports = readdirSync(DIST_DIR)
      .filter((f) => /\.d\.c?ts$/.test(f))
      .flatMap((f) => [...readFileSync(join(DIST_DIR, f), 'utf8').matchAll(/^(?:import|export)\b.*\bfrom '([^']+)'/gm)].map((m) => m[1]));
    expect(imports.length).toBeGreaterThan(0);
    expect([...new Set(imports.filter((i) => !i?.startsWith('./')))]).toEqual(['openapi-fetch']);
  });

  it('carries the contract’s `paths` types in its .d.ts, referring to no workspace package', () => {
    const declarations = readdirSync(DIST_DIR)
      .filter((f) => /\.d\.c?ts$/.test(f))
      .map((f) => readFileSync(join(DIST_DIR, f), 'utf8'))
      .join('\n');
    expect(declarations).toMatch(/\binterface paths\b/);
    expect(declarations).not.toMatch(/(?:from |import\()['"]@engagekit\/contract/);
  });
});
