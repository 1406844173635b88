/**
 * The packaging test's checks (test.ts), as a table: each says what it shows a user gets, and runs it
 * in the project where the tarballs are installed, as a user would type it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installedBin, type Run, run, type Started, StepError, start, tail } from './commands.ts';
import { type InstallCase, type InstallWeight, MSW_PEER, measureInstall, overLimits, type userInstalls } from './install-weight.ts';
import { nodeBinary } from './node-versions.ts';
import type { Tarballs } from './pack.ts';
import { checksInChromium, runtimeMatrix, startMatrixServer } from './runtime-matrix.ts';
import { strictLayoutTypes } from './strict-layout.ts';

/** `ms` as seconds, for the steps' lines. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one named step, printing its name, then how long it took or that it failed. */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  process.stdout.write(`packaging: ${name} ... `);
  try {
    const value = await fn();
    console.log(`ok (${seconds(performance.now() - t0)})`);
    return value;
  } catch (e) {
    console.log('FAILED');
    throw e;
  }
}

/** The installed project the checks run in, and what they share. */
export interface Project {
  work: string;
  /** The partner's project: the tarballs, the test runners and the matrix's runtimes installed with npm. */
  dir: string;
  tarballs: Tarballs;
  installs: ReturnType<typeof userInstalls>;
  /** The environment of every command: Node 24 first on PATH, no DATABASE_URL, nothing of pnpm's. */
  env: NodeJS.ProcessEnv;
  /** `engagekit-server`'s environment: a data directory of its own, any port, a known admin token. */
  serverEnv: NodeJS.ProcessEnv;
  /** The PostgreSQL the run was given (DATABASE_URL), for the check that needs one. */
  databaseUrl: string | undefined;
  node22: string;
  node24: string;
  /** Stopped when the run ends, whatever happens. */
  servers: Started[];
  /** When `npm install` began, and how long the run then waited for `pnpm test`'s go. */
  installStarted: number;
  heldMs: number;
}

/** What checks find for the checks after them and for the summary. */
export interface Found {
  weights?: Record<'sdk' | 'msw' | 'mockAndSdk' | 'server', InstallWeight>;
  firstGreenMs?: number;
  mock?: { started: Started; url: string };
  server?: { started: Started; readyMs: number };
  matrixServer?: Started;
  matrix?: string[];
  mcpWeight?: InstallWeight;
}

/** `value`, which an earlier check of the table finds. */
export function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`packaging: ${what} is found by an earlier check of CHECKS`);
  return value;
}

/** A check of the table: what it shows, and how, in the installed project. */
interface Check {
  shows: string;
  run(project: Project, soFar: Found): Promise<void>;
}

/** The checks, in the order they run. */
export const CHECKS: readonly Check[] = [
  {
    shows:
      'what users download: the SDK, the mock with the SDK (beside msw@3 alone), and the server, each installed into a fresh project and held to its limits (install-weight.ts)',
    async run(p, f) {
      f.weights = await step(
        `install weight: npm install of the sdk, the mock with the sdk, the server, each into a fresh project, beside ${MSW_PEER} alone`,
        async () => {
          const w = {
            sdk: await measureInstall(p.work, p.installs.sdk, p.env),
            msw: await measureInstall(p.work, p.installs.msw, p.env),
            mockAndSdk: await measureInstall(p.work, p.installs.mockAndSdk, p.env),
            server: await measureInstall(p.work, p.installs.server, p.env),
          };
          const over = overLimits(w);
          if (over.length > 0) throw new StepError(`What users download grew past its limits:\n${over.join('\n')}`);
          return w;
        },
      );
    },
  },
  {
    shows:
      "a partner's suite in Vitest (ESM), through `listen()` (MSW) and through `mock.fetch`; the same suite in Jest, with CommonJS `require`; and with `node --test`, plain Node ESM, on Node 22 and on Node 24",
    async run(p, f) {
      const vitest = await step('Vitest (ESM), MSW listen() and mock.fetch: npx vitest run partner.vitest', () =>
        run('npx', ['vitest', 'run', 'partner.vitest'], { cwd: p.dir, env: p.env }),
      );
      f.firstGreenMs = performance.now() - p.installStarted - p.heldMs;
      expectPassed(vitest, /Tests\s+12 passed/, 'npx vitest run partner.vitest');
      const jest = await step('Jest (CommonJS require): npx jest partner.jest', () => run('npx', ['jest', 'partner.jest'], { cwd: p.dir, env: p.env }));
      expectPassed(jest, /Tests:\s+12 passed/, 'npx jest partner.jest');
      for (const [label, node] of [
        ['Node 22', p.node22],
        ['Node 24', p.node24],
      ] as const) {
        const out = await step(`node --test on ${label}: node --test partner.node-test.test.mjs`, () =>
          run(node, ['--test', 'partner.node-test.test.mjs'], { cwd: p.dir, env: p.env }),
        );
        expectPassed(out, /^(#|ℹ) pass 12$/m, `node --test partner.node-test.test.mjs (${label})`);
      }
    },
  },
  {
    shows:
      "`npx engagekit-mock` and `npx engagekit-server` (Node 24) to their ready line and a 200 on /api/v2/health; the runtime matrix's server starts behind them",
    async run(p, f) {
      const mock = start('npx', ['engagekit-mock', '--port', '0'], { cwd: p.dir, env: p.env });
      p.servers.push(mock);
      const mockUrl = await step('npx engagekit-mock: ready line', async () => (await mock.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1] as string);
      await step('engagekit-mock answers 200 on /api/v2/health', () => expectHealthy(mockUrl, mock.line));
      f.mock = { started: mock, url: mockUrl };

      const serverStarted = performance.now();
      const server = start('npx', ['engagekit-server'], { cwd: p.dir, env: p.serverEnv });
      p.servers.push(server);
      const serverUrl = await step('npx engagekit-server on an empty data directory: ready line', async () => {
        return (await server.waitFor(/listening on (http:\/\/\S+)/, 120_000))[1] as string;
      });
      f.server = { started: server, readyMs: performance.now() - serverStarted };
      await step('engagekit-server answers 200 on /api/v2/health', () => expectHealthy(serverUrl, server.line));
      f.matrixServer = startMatrixServer({ project: p.dir, work: p.work, env: p.env, node24: p.node24 });
      p.servers.push(f.matrixServer);
    },
  },
  {
    shows: 'the SDK bundled for the browser by esbuild, in Chromium, against that mock',
    async run(p, f) {
      const { url } = found(f.mock, 'the mock');
      await step('the SDK bundled by esbuild runs in Chromium against engagekit-mock', () => browserCheck(p.dir, p.env, url));
    },
  },
  {
    shows: 'each bin run directly on Node 22 (the server on the data directory the first run made), answering, and exiting 0 on SIGTERM',
    async run(p, f) {
      await found(f.mock, 'the mock').started.stop();
      await found(f.server, 'the server').started.stop();
      // A supervisor runs the bin itself (npm does not pass SIGTERM on to what `npx` started); on Node 22 here.
      for (const [label, args, runEnv] of [
        ['engagekit-server', [], p.serverEnv],
        ['engagekit-mock', ['--port', '0'], p.env],
      ] as const) {
        const bin = start(p.node22, [installedBin(p.dir, label), ...args], { cwd: p.dir, env: runEnv });
        p.servers.push(bin);
        const again = label === 'engagekit-server' ? 'restarts on that data directory, answers, ' : 'answers, ';
        await step(`${label} on Node 22 ${again}drains on SIGTERM and exits 0`, async () => {
          const [, url] = await bin.waitFor(/listening on (http:\/\/\S+)/, 60_000);
          await expectHealthy(url as string, bin.line);
          const code = await bin.stop();
          if (code !== 0) throw new StepError(`\`${bin.line}\` exited with ${code} after SIGTERM:\n${tail(bin.output())}`);
        });
      }
    },
  },
  {
    shows: 'with DATABASE_URL set, `engagekit-server` on a new PostgreSQL database of its own',
    async run(p) {
      if (!p.databaseUrl) return;
      const database = await freshDatabase(p.dir, p.databaseUrl);
      const onPostgres = start(installedBin(p.dir, 'engagekit-server'), [], {
        cwd: p.dir,
        env: { ...p.serverEnv, DATABASE_URL: database.url, DATA_DIR: join(p.work, 'unused') },
      });
      p.servers.push(onPostgres);
      try {
        await step('engagekit-server with DATABASE_URL migrates a new PostgreSQL database, answers, exits 0 on SIGTERM', async () => {
          const [, url] = await onPostgres.waitFor(/\(PostgreSQL\) listening on (http:\/\/\S+)/, 60_000);
          await expectHealthy(url as string, onPostgres.line);
          const code = await onPostgres.stop();
          if (code !== 0) throw new StepError(`\`${onPostgres.line}\` exited with ${code} after SIGTERM:\n${tail(onPostgres.output())}`);
        });
      } finally {
        await onPostgres.stop();
        await database.drop();
      }
    },
  },
  {
    shows:
      "the SDK's runtime matrix (runtime-matrix.ts): one integrator's script against `engagekit-server` on Node 22 and 24, Bun, Deno, workerd through the stable and the newest miniflare, and Chromium",
    async run(p, f) {
      const server = found(f.matrixServer, "the runtime matrix's server");
      f.matrix = await runtimeMatrix({ project: p.dir, work: p.work, env: p.env, node22: p.node22, node24: p.node24, step, server });
    },
  },
  {
    shows: 'the contract and the SDK on Node 20, the oldest Node they claim',
    run: (p) => step('the contract and the SDK on Node 20 (require and import)', () => node20Check(p.dir, p.env)),
  },
  {
    shows:
      "a partner's TypeScript project under pnpm's strict layout: the mock and the SDK installed with pnpm, and `tsc` emitting declarations over inferred exports of both (strict-layout.ts)",
    run: (p) =>
      step("types under pnpm's strict layout: pnpm install of the mock and the SDK, tsc emitting declarations of inferred exports", () =>
        strictLayoutTypes(p.work, p.tarballs, p.env),
      ),
  },
  {
    shows: '`engagekit-mcp` over stdio, driven by the official MCP client (both tools, a rehearsal on the mock)',
    run: (p) => step('engagekit-mcp over stdio, driven by the official MCP client: node mcp-client.mjs', () => mcpClientCheck(p.dir, p.env, p.node24)),
  },
  {
    shows:
      "in a project of its own holding only the MCP server's tarball and what it pulls, its install weight (packages and bytes) and its command saying what to install for a rehearsal",
    async run(p, f) {
      f.mcpWeight = await step("the MCP server's own install (its tarball and what it pulls): weight, and its command without the mock", () =>
        mcpOwnInstall(p.work, p.env, p.installs.mcp),
      );
    },
  },
  {
    shows:
      '`npx engagekit-whatsapp-emulator` to its ready line and one template send answered with a wamid; the emulator imported and required by name, sending one message',
    async run(p) {
      const emulator = start('npx', ['engagekit-whatsapp-emulator', '--port', '0', '--accept-any-template'], { cwd: p.dir, env: p.env });
      p.servers.push(emulator);
      try {
        const url = await step(
          'npx engagekit-whatsapp-emulator: ready line',
          async () => (await emulator.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1] as string,
        );
        await step('engagekit-whatsapp-emulator answers a template send with a wamid', () => expectWamid(url, emulator.line));
      } finally {
        await emulator.stop();
      }
      await step('the WhatsApp emulator imported (ESM) and required (CommonJS), each sending one message', () =>
        whatsappEmulatorInProcess(p.dir, p.env, p.node24),
      );
    },
  },
];

/** Fails unless the emulator at `url` (started by the command `line`) answers one template send 200 with a wamid. */
async function expectWamid(url: string, line: string) {
  const res = await fetch(`${url}/v21.0/100000000000001/messages`, {
    method: 'POST',
    headers: { authorization: 'Bearer emulator-access-token', 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to: '15550001234', type: 'template', template: { name: 'hello', language: { code: 'en_US' } } }),
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"wamid.')) throw new StepError(`A send to \`${line}\` answered ${res.status}: ${text}`);
}

/** `createWhatsAppEmulator` loaded both ways in the project, each sending one message to itself. */
async function whatsappEmulatorInProcess(project: string, env: NodeJS.ProcessEnv, node: string) {
  const sendOne = `async ({ createWhatsAppEmulator }) => {
      const wa = await createWhatsAppEmulator({ templates: [{ name: 'hello' }] });
      const res = await fetch(wa.apiUrl + '/' + wa.phoneNumberId + '/messages', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + wa.accessToken, 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', to: '15550001234', type: 'template', template: { name: 'hello', language: { code: 'en_US' } } }),
      });
      await wa.close();
      return [res.status, wa.messages().length];
    }`;
  const script = `
    const { createRequire } = await import('node:module');
    const sendOne = ${sendOne};
    const imported = await sendOne(await import('@engagekit/whatsapp-emulator'));
    const required = await sendOne(createRequire(process.cwd() + '/package.json')('@engagekit/whatsapp-emulator'));
    console.log(JSON.stringify([imported, required]));`;
  const out = await run(node, ['--input-type=module', '-e', script], { cwd: project, env });
  const seen = out.stdout.trim().split('\n').at(-1);
  if (seen !== '[[200,1],[200,1]]') throw new StepError(`The WhatsApp emulator in process printed ${seen}, not [[200,1],[200,1]]`);
}

/** A PostgreSQL node-postgres client, as the installed `pg` offers it. */
interface PgClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * A new PostgreSQL database on the server of `base` (a connection string), dropped by `drop()`: made
 * with the node-postgres that `engagekit-server` brought into the project, as the server reaches it.
 */
async function freshDatabase(project: string, base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = createRequire(join(project, 'package.json'))('pg') as { Client: new (options: { connectionString: string }) => PgClient };
  const name = `engagekit_packaging_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const onServer = async (statement: string) => {
    const client = new Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Fails unless `out` shows every case of the suite ran (`pattern`), naming the command `line`. */
function expectPassed(out: Run, pattern: RegExp, line: string) {
  const text = `${out.stdout}\n${out.stderr}`;
  if (!pattern.test(text)) throw new StepError(`\`${line}\` passed, but not every case ran (no ${pattern} in its output):\n${tail(text)}`);
}

/** Fails unless `url`'s /api/v2/health answers 200, naming the command `line` that serves it. */
async function expectHealthy(url: string, line: string) {
  const res = await fetch(`${url}/api/v2/health`);
  if (res.status !== 200) throw new StepError(`GET ${url}/api/v2/health of \`${line}\` answered ${res.status}: ${await res.text()}`);
}

/** The runtime matrix's checks in Chromium, against engagekit-mock and the company it serves. */
async function browserCheck(project: string, env: NodeJS.ProcessEnv, mockUrl: string) {
  const info = (await (await fetch(`${mockUrl}/__mock`)).json()) as { data: { company: { uuid: string; company_id: string; token: string } } };
  const { token, uuid, company_id } = info.data.company;
  await checksInChromium(project, env, 'Chromium against engagekit-mock', { api: mockUrl, token, uuid, companyId: company_id });
}

/** The contract and the SDK, loaded both ways by the oldest Node they claim (skipped, saying so, when there is none). */
async function node20Check(project: string, env: NodeJS.ProcessEnv) {
  const node20 = await nodeBinary(20, { install: false });
  if (!node20) {
    console.log('(skipped: no Node 20 at /usr/bin/node or NODE20_PATH) ');
    return;
  }
  const script = `
    const contract = require('@engagekit/contract');
    const sdk = require('@engagekit/sdk');
    import('@engagekit/sdk/webhooks').then(async (wh) => {
      const parsed = contract.AddOrderBody.safeParse({ company_id: 'C1' });
      const headers = await wh.signWebhook('{}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
      const event = await wh.verifyWebhook('{}', headers, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').catch((e) => e.name);
      console.log(JSON.stringify([process.versions.node.split('.')[0], parsed.success, typeof sdk.createClient, event]));
    });`;
  const out = await run(node20, ['-e', script], { cwd: project, env });
  const seen = out.stdout.trim();
  if (seen !== '["20",false,"function","WebhookVerificationError"]') throw new StepError(`\`node -e ...\` on Node 20 printed ${seen}`);
}

/** The installed `engagekit-mcp`, started over stdio by the MCP client in mcp-client.mjs: its tools, a search, a rehearsal, a refused escape. */
async function mcpClientCheck(project: string, env: NodeJS.ProcessEnv, node24: string) {
  const { stdout } = await run(node24, ['mcp-client.mjs'], { cwd: project, env });
  const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
  const expected = {
    tools: ['search_docs', 'execute'],
    firstHit: 'operation:createCampaign',
    result: { status: 'completed', messages: 2 },
    calls: ['mock.clock.set', 'campaigns.create', 'mock.clock.advance', 'campaigns.get', 'reports.get'],
    escape: 'ReferenceError',
  };
  if (JSON.stringify(seen) !== JSON.stringify(expected))
    throw new StepError(`node mcp-client.mjs saw ${JSON.stringify(seen)}, not ${JSON.stringify(expected)}`);
}

/**
 * The MCP server's own install (its tarball and what it pulls, without the mock): its weight, and its
 * command with `--target mock` saying what to install.
 */
async function mcpOwnInstall(work: string, env: NodeJS.ProcessEnv, install: InstallCase): Promise<InstallWeight> {
  return measureInstall(work, install, env, async (project) => {
    const refused = await run(installedBin(project, 'engagekit-mcp'), ['--target', 'mock'], { cwd: project, env }).then(
      () => null,
      (e: StepError) => e.message,
    );
    if (!refused?.includes('exited with 2') || !refused.includes('npm install @engagekit/mock-server')) {
      throw new StepError(
        `\`engagekit-mcp --target mock\` without @engagekit/mock-server should exit 2 saying what to install; it said:\n${refused ?? '(exited 0)'}`,
      );
    }
  });
}
