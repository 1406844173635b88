/**
 * The SDK's runtime matrix, part of `pnpm test:packaging`: the same integrator's script
 * (fixtures/sdk-runtime-checks.mjs) runs against a reference server started from the installed
 * tarball's bin, on Node 22 and 24, Bun, Deno, workerd through two miniflare releases, and Chromium,
 * each with the SDK as the packed tarball installs it. Under Bun and Deno, also a partner's test on the
 * in-process mock through `mock.fetch`, where `listen()` must refuse with an error naming it. Each runtime is a step of its own, with a company
 * of its own, and a failure names the runtime and the command.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { launchChromium } from '../browser.ts';
import { installedBin, run, type Started, StepError, start, tail } from './commands.ts';

/**
 * The runtimes the project installs from the npm registry for the matrix (with the tarballs, in one
 * npm install: the packaging test's first step). miniflare twice, by npm
 * alias: the release its `latest` tag names and the newest published one (`npm view miniflare
 * dist-tags`, `npm view miniflare time`); each brings its own workerd.
 */
export const RUNTIMES = ['bun@1.4.5', 'deno@2.9.6', 'miniflare-stable@npm:miniflare@4.20260730.0', 'miniflare-newest@npm:miniflare@5.20261117.0-beta'];

const ADMIN_TOKEN = 'packaging-admin-token-0123456789';

/** How long one runtime may take to run the checks: seconds are usual; the bound only ends a hang. */
const RUN_TIMEOUT_MS = 120_000;

/** What the checks resolve to in every runtime, but the user agent, which names the runtime. */
const EXPECTED = {
  created: ['first', 'second', 'third'],
  names: ['first', 'second', 'third'],
  notFound: true,
  status: 404,
  order: [201, 'B-1'],
  verified: 'order.created',
  tampered: 'WebhookVerificationError',
};

/** Runs one named, timed step of the packaging test. */
export type StepRunner = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

/** What the matrix needs from the packaging test. */
export interface RuntimeMatrixOptions {
  /** The project the tarballs are installed in, with the fixtures copied into it. */
  project: string;
  /** A directory for the server's data. */
  work: string;
  env: NodeJS.ProcessEnv;
  node22: string;
  node24: string;
  step: StepRunner;
  /** The matrix's reference server, from `startMatrixServer`; the matrix stops it. */
  server: Started;
}

/**
 * Starts the reference server the matrix runs against (the installed bin on PGlite, no rate limit).
 * The caller starts it a few steps ahead of the matrix: making its embedded database takes seconds,
 * which the steps in between hide. The caller adds it to the servers it stops whatever happens.
 */
export function startMatrixServer(o: Pick<RuntimeMatrixOptions, 'project' | 'work' | 'env' | 'node24'>): Started {
  return start(o.node24, [installedBin(o.project, 'engagekit-server')], {
    cwd: o.project,
    env: { ...o.env, PORT: '0', DATA_DIR: join(o.work, 'matrix-data'), ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0' },
  });
}

/** Runs the matrix; resolves to one line per runtime saying which version ran. */
export async function runtimeMatrix(o: RuntimeMatrixOptions): Promise<string[]> {
  const { project, step } = o;
  const env: NodeJS.ProcessEnv = { ...o.env, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' };
  const bin = (name: string) => installedBin(project, name);
  const ran: string[] = [];

  const { server } = o;
  const api = await step('runtime matrix: engagekit-server (PGlite, no rate limit), started a few steps before, to its ready line', async () => {
    return (await server.waitFor(/listening on (http:\/\/\S+)/, 120_000))[1] as string;
  });
  const nodeVersion = async (node: string) => (await run(node, ['--version'], { cwd: project, env })).stdout.trim();

  const scripts = [
    { runtime: `Node ${await nodeVersion(o.node22)}`, agent: /^Node\.js\/22$/, command: o.node22, args: ['sdk-runtime.mjs'] },
    { runtime: `Node ${await nodeVersion(o.node24)}`, agent: /^Node\.js\/24$/, command: o.node24, args: ['sdk-runtime.mjs'] },
    { runtime: `Bun ${installedVersion(project, 'bun')}`, agent: /^Bun\//, command: bin('bun'), args: ['sdk-runtime.mjs'] },
    {
      runtime: `Deno ${installedVersion(project, 'deno')}`,
      agent: /^Deno\//,
      command: bin('deno'),
      args: ['run', '--allow-net=127.0.0.1', '--no-lock', 'sdk-runtime.mjs'],
    },
  ];
  for (const { runtime, agent, command, args } of scripts) {
    const line = `${[command, ...args].join(' ')} '<api, token, uuid, companyId as JSON>'`;
    await step(`runtime matrix, ${runtime}: ${line}`, async () => {
      const company = await newCompany(api, runtime);
      const out = await named(runtime, run(command, [...args, JSON.stringify(company)], { cwd: project, env, timeoutMs: RUN_TIMEOUT_MS }));
      ran.push(`${runtime}: ${expectChecks(runtime, line, lastJsonLine(runtime, line, out.stdout), agent)}`);
    });
  }

  // The in-process mock where partners' suites may run under Bun or Deno: `mock.fetch` works, `listen()` refuses clearly.
  for (const { runtime, command, args } of [
    { runtime: `Bun ${installedVersion(project, 'bun')}`, command: bin('bun'), args: ['mock-runtime.mjs'] },
    { runtime: `Deno ${installedVersion(project, 'deno')}`, command: bin('deno'), args: ['run', '--allow-all', '--no-lock', 'mock-runtime.mjs'] },
  ]) {
    const line = [command, ...args].join(' ');
    await step(`runtime matrix, ${runtime}: the mock through mock.fetch, and listen() refused: ${line}`, async () => {
      const out = await named(runtime, run(command, args, { cwd: project, env, timeoutMs: RUN_TIMEOUT_MS }));
      const seen = lastJsonLine(runtime, line, out.stdout);
      const expected = { names: ['first', 'second'], journal: 4, listen: 'MockListenError: names mock.fetch' };
      if (JSON.stringify(seen) !== JSON.stringify(expected))
        throw new StepError(`${runtime}: \`${line}\` saw ${JSON.stringify(seen)}, not ${JSON.stringify(expected)}`);
      ran.push(`${runtime}: the mock through mock.fetch; listen() refused with MockListenError`);
    });
  }

  const worker = join(project, 'worker-bundle.js');
  const bundleWorker = ['esbuild', 'sdk-in-worker.mjs', '--bundle', '--format=esm', '--platform=browser', '--conditions=workerd,worker', `--outfile=${worker}`];
  await step(`runtime matrix: bundle the Worker, npx ${bundleWorker.join(' ')}`, () => named('workerd', run('npx', bundleWorker, { cwd: project, env })));
  for (const alias of ['miniflare-stable', 'miniflare-newest']) {
    const runtime = `workerd through miniflare ${installedVersion(project, alias)}`;
    const line = `node miniflare-run.mjs ${alias} worker-bundle.js '<api, token, uuid, companyId as a query>'`;
    await step(`runtime matrix, ${runtime}: ${line}`, async () => {
      const query = new URLSearchParams({ ...(await newCompany(api, runtime)) }).toString();
      const out = await named(runtime, run(o.node24, ['miniflare-run.mjs', alias, worker, query], { cwd: project, env, timeoutMs: RUN_TIMEOUT_MS }));
      const seen = lastJsonLine(runtime, line, out.stdout) as { workerd?: string; compatibilityDate?: string; worker?: unknown };
      expectChecks(runtime, line, seen.worker, /^Cloudflare-Workers$/);
      ran.push(`${runtime}: workerd ${seen.workerd}, compatibility date ${seen.compatibilityDate}`);
    });
  }

  await step('runtime matrix, Chromium: the SDK bundled by esbuild in a page on loopback', async () => {
    ran.push(`Chromium: ${await checksInChromium(project, env, 'Chromium', await newCompany(api, 'Chromium'))}`);
  });

  await server.stop();
  return ran;
}

/**
 * The checks (fixtures/sdk-runtime-checks.mjs) bundled by the project's esbuild for the browser and run
 * in a page on loopback in Chromium, against the API `company.api` names; fails unless they saw what
 * they should, and resolves to Chromium's user agent. `runtime` names the step in a failure.
 */
export async function checksInChromium(
  project: string,
  env: NodeJS.ProcessEnv,
  runtime: string,
  company: { api: string; token: string; uuid: string; companyId: string },
): Promise<string> {
  const page = join(project, 'runtime-browser-bundle.js');
  const bundlePage = ['esbuild', 'sdk-runtime-in-browser.mjs', '--bundle', '--format=esm', '--platform=browser', `--outfile=${page}`];
  await named(runtime, run('npx', bundlePage, { cwd: project, env }));
  const { result, errors } = await runInChromium(page, new URLSearchParams(company));
  const line = `a page running ${page} (from npx ${bundlePage.join(' ')})${errors.length ? `; page errors: ${errors.join('; ')}` : ''}`;
  return expectChecks(runtime, line, result, /HeadlessChrome\/\d/);
}

/** A company and a token for it, made through the admin API, as the script's arguments. */
async function newCompany(api: string, label: string): Promise<{ api: string; token: string; uuid: string; companyId: string }> {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 201) throw new StepError(`${label}: POST ${api}${path} (admin API) answered ${res.status}: ${text}`);
    return (JSON.parse(text) as { data: Record<string, string> }).data;
  };
  const company = await post('/api/v2/companies', { name: `Runtime matrix, ${label}` });
  const token = await post(`/api/v2/companies/${company.uuid}/tokens`, {});
  return { api, token: token.token as string, uuid: company.uuid as string, companyId: company.company_id as string };
}

/** The version of a package installed in the project (an npm alias gives the real package's). */
function installedVersion(project: string, name: string): string {
  return (JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Prefixes a failing command's error with the runtime it ran for. */
async function named<T>(runtime: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (e) {
    if (e instanceof StepError) throw new StepError(`${runtime}: ${e.message}`);
    throw e;
  }
}

/** The last line of a script's stdout, parsed as the JSON it prints. */
function lastJsonLine(runtime: string, line: string, stdout: string): unknown {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last);
  } catch {
    throw new StepError(`${runtime}: \`${line}\` printed no JSON line:\n${tail(stdout)}`);
  }
}

/** Fails, naming the runtime and the command, unless the checks saw what they should; returns the user agent. */
function expectChecks(runtime: string, line: string, seen: unknown, agent: RegExp): string {
  const { userAgent, ...rest } = (seen ?? {}) as { userAgent?: string };
  if (typeof userAgent !== 'string' || !agent.test(userAgent) || JSON.stringify(rest) !== JSON.stringify(EXPECTED))
    throw new StepError(`${runtime}: \`${line}\` saw ${JSON.stringify(seen)},\nnot ${JSON.stringify({ userAgent: String(agent), ...EXPECTED })}`);
  return userAgent;
}

/**
 * Loads `bundle` as the module of a page served from loopback, with `query` as the page's query, in
 * headless Chromium; resolves to the `window.__result` it leaves, and the page's errors.
 */
async function runInChromium(bundle: string, query: URLSearchParams): Promise<{ result: unknown; errors: string[] }> {
  const html = `<!doctype html><meta charset="utf-8"><title>partner app</title><script type="module" src="/app.js"></script>`;
  const origin = createServer((req, res) => {
    if (req.url?.startsWith('/app.js')) res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(bundle));
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    await tab.goto(`http://127.0.0.1:${(origin.address() as AddressInfo).port}/?${query}`);
    await tab.waitForFunction(() => (globalThis as { __result?: unknown }).__result !== undefined, undefined, { timeout: 30_000 });
    const result = await tab.evaluate(
      (ms) =>
        Promise.race([
          (globalThis as { __result?: Promise<unknown> }).__result,
          new Promise((resolve) => setTimeout(() => resolve({ error: `window.__result did not settle in ${ms / 1000} s` }), ms)),
        ]),
      RUN_TIMEOUT_MS,
    );
    return { result, errors };
  } finally {
    await browser.close();
    origin.close();
  }
}
