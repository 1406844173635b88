/**
 * `pnpm test:packaging`: the packages as a user gets them. Packs every published package, installs
 * the tarballs with npm into a fresh project outside the workspace (no workspace links, no pnpm), and
 * runs there, as a user would type them:
 *
 * 1. a partner's suite in Vitest (ESM), through `listen()` (MSW) and through `mock.fetch`;
 * 2. the same suite in Jest, with CommonJS `require`;
 * 3. the same suite with `node --test`, plain Node ESM, on Node 22 and on Node 24;
 * 4. `npx engagekit-mock` and `npx engagekit-server` (Node 24) to their ready line and a 200 on
 *    /api/v2/health; then each bin run directly on Node 22 (the server on the data directory the first
 *    run made), answering, and exiting 0 on SIGTERM;
 * 5. the SDK bundled for the browser by esbuild, in Chromium, against that mock;
 * 6. with DATABASE_URL set, `engagekit-server` on a new PostgreSQL database of its own;
 * 7. the SDK's runtime matrix (runtime-matrix.ts): one integrator's script against `engagekit-server`
 *    on Node 22 and 24, Bun, Deno, workerd through the stable and the newest miniflare, and Chromium;
 * 8. the contract and the SDK on Node 20, the oldest Node they claim;
 * 9. what users download: the SDK, the mock with the SDK (beside msw@3 alone), and the server, each
 *    installed into a fresh project and held to its limits (install-weight.ts);
 * 10. a partner's TypeScript project under pnpm's strict layout: the mock and the SDK installed with
 *    pnpm, and `tsc` emitting declarations over inferred exports of both (strict-layout.ts);
 * 11. `engagekit-mcp` over stdio, driven by the official MCP client (both tools, a rehearsal on the mock);
 *    and, in a project of its own holding only the MCP server's tarball and what it pulls, its install
 *    weight (packages and bytes) and its command saying what to install for a rehearsal.
 *
 * A failure names the command that failed, with its output. Prints how long each step took, the
 * packages' unpacked sizes, the time from `npm install` (with the matrix's runtimes) to the first
 * green suite, the time `engagekit-server` took to its ready line on an empty data directory, and the
 * MCP server's own install weight.
 *
 * `KEEP=1` keeps the project (its path is printed) for a look afterwards. `--install-first`: packs,
 * installs and finds Node 22, then waits for a line on stdin before the checks; `pnpm test` starts it
 * so, beside the lints and Vitest (scripts/test.ts).
 */
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from '../../packages/reference-server/test/helpers.ts';
import { ensureBuilt, PACKAGES } from '../build/ensure-built.ts';
import { installedBin, onStopSignal, type Run, run, type Started, StepError, signalGroup, start, tail } from './commands.ts';
import { type InstallCase, type InstallWeight, MSW_PEER, measureInstall, megabytes, overLimits, userInstalls } from './install-weight.ts';
import { nodeBinary } from './node-versions.ts';
import { packAll, tarballSize } from './pack.ts';
import { checksInChromium, RUNTIMES, runtimeMatrix, startMatrixServer } from './runtime-matrix.ts';
import { strictLayoutTypes } from './strict-layout.ts';

const FIXTURES = fileURLToPath(new URL('fixtures', import.meta.url));

/** The test tools the project installs beside the tarballs: the versions this repository tests with. */
const TOOLS = ['vitest@5.1.1', 'vite@8.3.8', 'jest@30.5.2', 'esbuild@0.28.2', '@modelcontextprotocol/sdk@1.32.2'];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Step {
  name: string;
  ms: number;
}

async function main() {
  const steps: Step[] = [];
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    process.stdout.write(`packaging: ${name} ... `);
    try {
      const value = await fn();
      const ms = performance.now() - t0;
      steps.push({ name, ms });
      console.log(`ok (${seconds(ms)})`);
      return value;
    } catch (e) {
      console.log('FAILED');
      throw e;
    }
  };

  await ensureBuilt();
  const work = mkdtempSync(join(tmpdir(), 'engagekit-packaging-'));
  const project = join(work, 'partner-app');
  const servers: Started[] = [];
  // Stopped (Ctrl-C, or pnpm test when another check failed): its servers and files go too.
  onStopSignal(() => {
    for (const server of servers) signalGroup(server.child.pid, 'SIGKILL');
    if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  });
  try {
    const tarballs = await step('pack every package (pnpm pack)', async () => packAll(mkdirAndReturn(join(work, 'tarballs'))));
    const node24 = await step('find Node 24', () => nodeBinary(24));
    // Node 22 comes from the npm registry when missing: fetched while npm installs the tarballs.
    const findingNode22 = nodeBinary(22);
    findingNode22.catch(() => {}); // its step below reports a failure
    // Node 24's directory first: npx, the bins' `#!/usr/bin/env node` and the runners all use it.
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(node24, '..')}:${process.env.PATH ?? ''}`, CI: '1', NO_COLOR: '1' };
    delete env.NODE_OPTIONS;
    // The server runs on PGlite unless a step gives it a database of its own.
    const databaseUrl = env.DATABASE_URL;
    delete env.DATABASE_URL;
    for (const key of Object.keys(env)) if (key.startsWith('npm_') || key.startsWith('PNPM_') || key === 'VITEST') delete env[key];

    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'partner-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(project, file));
    const installStarted = performance.now();
    await step(`npm install the ${PACKAGES.length} tarballs, the test runners and the runtimes of the SDK's matrix`, () =>
      run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES.map((p) => tarballs[p]), ...TOOLS, ...RUNTIMES], { cwd: project, env }),
    );
    checkInstalledFromTarballs(project);
    const node22 = await step('find Node 22 (from the npm registry when missing, beside that install)', () => findingNode22);
    const heldMs = process.argv.includes('--install-first') ? await waitForLine() : 0;

    const installs = userInstalls(tarballs);
    const weights = await step(
      `install weight: npm install of the sdk, the mock with the sdk, the server, each into a fresh project, beside ${MSW_PEER} alone`,
      async () => {
        const w = {
          sdk: await measureInstall(work, installs.sdk, env),
          msw: await measureInstall(work, installs.msw, env),
          mockAndSdk: await measureInstall(work, installs.mockAndSdk, env),
          server: await measureInstall(work, installs.server, env),
        };
        const over = overLimits(w);
        if (over.length > 0) throw new StepError(`What users download grew past its limits:\n${over.join('\n')}`);
        return w;
      },
    );

    const vitest = await step('Vitest (ESM), MSW listen() and mock.fetch: npx vitest run partner.vitest', () =>
      run('npx', ['vitest', 'run', 'partner.vitest'], { cwd: project, env }),
    );
    const firstGreen = performance.now() - installStarted - heldMs;
    expectPassed(vitest, /Tests\s+12 passed/, 'npx vitest run partner.vitest');
    const jest = await step('Jest (CommonJS require): npx jest partner.jest', () => run('npx', ['jest', 'partner.jest'], { cwd: project, env }));
    expectPassed(jest, /Tests:\s+12 passed/, 'npx jest partner.jest');
    for (const [label, node] of [
      ['Node 22', node22],
      ['Node 24', node24],
    ] as const) {
      const out = await step(`node --test on ${label}: node --test partner.node-test.test.mjs`, () =>
        run(node, ['--test', 'partner.node-test.test.mjs'], { cwd: project, env }),
      );
      expectPassed(out, /^(#|ℹ) pass 12$/m, `node --test partner.node-test.test.mjs (${label})`);
    }

    const mock = start('npx', ['engagekit-mock', '--port', '0'], { cwd: project, env });
    servers.push(mock);
    const mockUrl = await step('npx engagekit-mock: ready line', async () => (await mock.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1] as string);
    await step('engagekit-mock answers 200 on /api/v2/health', () => expectHealthy(mockUrl, mock.line));

    const dataDir = join(work, 'server-data');
    const serverEnv = { ...env, PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: 'packaging-admin-token-0123456789' };
    const serverStarted = performance.now();
    const server = start('npx', ['engagekit-server'], { cwd: project, env: serverEnv });
    servers.push(server);
    const serverUrl = await step('npx engagekit-server on an empty data directory: ready line', async () => {
      return (await server.waitFor(/listening on (http:\/\/\S+)/, 120_000))[1] as string;
    });
    const serverReady = performance.now() - serverStarted;
    await step('engagekit-server answers 200 on /api/v2/health', () => expectHealthy(serverUrl, server.line));
    const matrixServer = startMatrixServer({ project, work, env, node24 });
    servers.push(matrixServer);

    await step('the SDK bundled by esbuild runs in Chromium against engagekit-mock', () => browserCheck(project, env, mockUrl));

    await mock.stop();
    await server.stop();
    // A supervisor runs the bin itself (npm does not pass SIGTERM on to what `npx` started); on Node 22 here.
    for (const [label, args, runEnv] of [
      ['engagekit-server', [], serverEnv],
      ['engagekit-mock', ['--port', '0'], env],
    ] as const) {
      const bin = start(node22, [installedBin(project, label), ...args], { cwd: project, env: runEnv });
      servers.push(bin);
      const again = label === 'engagekit-server' ? 'restarts on that data directory, answers, ' : 'answers, ';
      await step(`${label} on Node 22 ${again}drains on SIGTERM and exits 0`, async () => {
        const [, url] = await bin.waitFor(/listening on (http:\/\/\S+)/, 60_000);
        await expectHealthy(url as string, bin.line);
        const code = await bin.stop();
        if (code !== 0) throw new StepError(`\`${bin.line}\` exited with ${code} after SIGTERM:\n${tail(bin.output())}`);
      });
    }

    if (databaseUrl) {
      const database = await freshDatabase('packaging');
      const onPostgres = start(installedBin(project, 'engagekit-server'), [], {
        cwd: project,
        env: { ...serverEnv, DATABASE_URL: database?.url ?? '', DATA_DIR: join(work, 'unused') },
      });
      servers.push(onPostgres);
      try {
        await step('engagekit-server with DATABASE_URL migrates a new PostgreSQL database, answers, exits 0 on SIGTERM', async () => {
          const [, url] = await onPostgres.waitFor(/\(PostgreSQL\) listening on (http:\/\/\S+)/, 60_000);
          await expectHealthy(url as string, onPostgres.line);
          const code = await onPostgres.stop();
          if (code !== 0) throw new StepError(`\`${onPostgres.line}\` exited with ${code} after SIGTERM:\n${tail(onPostgres.output())}`);
        });
      } finally {
        await onPostgres.stop();
        await database?.drop();
      }
    }

    const matrix = await runtimeMatrix({ project, work, env, node22, node24, step, server: matrixServer });

    await step('the contract and the SDK on Node 20 (require and import)', () => node20Check(project, env));

    await step("types under pnpm's strict layout: pnpm install of the mock and the SDK, tsc emitting declarations of inferred exports", () =>
      strictLayoutTypes(work, tarballs, env),
    );
    await step('engagekit-mcp over stdio, driven by the official MCP client: node mcp-client.mjs', () => mcpClientCheck(project, env, node24));
    const mcpWeight = await step("the MCP server's own install (its tarball and what it pulls): weight, and its command without the mock", () =>
      mcpOwnInstall(work, env, installs.mcp),
    );

    console.log('\npackaging: every step passed');
    console.log(`  npm install (with the matrix's runtimes) to the first green suite (Vitest): ${seconds(firstGreen)}`);
    console.log(`  npx engagekit-server to its ready line, empty data directory: ${seconds(serverReady)}`);
    for (const name of PACKAGES) {
      const size = tarballSize(tarballs[name]);
      console.log(
        `  @engagekit/${name}: ${(size.unpackedBytes / 1024).toFixed(0)} kB unpacked, ${(size.packedBytes / 1024).toFixed(0)} kB packed, ${size.files} files`,
      );
    }
    console.log('  what users download (fresh project, npm install; packages, node_modules, install time):');
    for (const [key, w] of Object.entries(weights)) {
      const line = `${installs[key as keyof typeof installs].id}: ${w.packages} packages, ${megabytes(w.bytes).toFixed(1)} MB, ${w.seconds.toFixed(1)} s`;
      console.log(`    ${key === 'msw' ? `${line} (the peer, ${MSW_PEER} alone)` : line}`);
    }
    console.log(
      `  ${installs.mcp.id}: ${mcpWeight.packages} packages, ${megabytes(mcpWeight.bytes).toFixed(1)} MB, ${mcpWeight.seconds.toFixed(1)} s (the MCP server alone, without the mock)`,
    );
    console.log("  the SDK's runtime matrix, against engagekit-server:");
    for (const line of matrix) console.log(`    ${line}`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    if (process.env.KEEP) console.log(`packaging: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** Waits for a line on stdin (the go of `pnpm test`, once Vitest is done); resolves to the milliseconds waited. */
async function waitForLine(): Promise<number> {
  const t0 = performance.now();
  console.log('packaging: installed; waiting for the go on stdin (pnpm test sends it after Vitest)');
  const go = await Promise.race([once(process.stdin, 'data').then(() => true), once(process.stdin, 'end').then(() => false)]);
  if (!go) throw new StepError('stdin ended before the go of pnpm test (was it stopped?)');
  process.stdin.pause();
  return performance.now() - t0;
}

function mkdirAndReturn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Fails unless npm took every @engagekit package from its tarball (none from a registry). */
function checkInstalledFromTarballs(project: string) {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
  for (const name of PACKAGES) {
    const entries = Object.entries(lock.packages).filter(([path]) => path.endsWith(`node_modules/@engagekit/${name}`));
    const bad = entries.filter(([, p]) => !p.resolved?.startsWith('file:'));
    if (entries.length !== 1 || bad.length > 0)
      throw new StepError(`npm installed @engagekit/${name} ${entries.length} times, not once from its tarball: ${JSON.stringify(entries)}`);
  }
}

function expectPassed(out: Run, pattern: RegExp, line: string) {
  const text = `${out.stdout}\n${out.stderr}`;
  if (!pattern.test(text)) throw new StepError(`\`${line}\` passed, but not every case ran (no ${pattern} in its output):\n${tail(text)}`);
}

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

try {
  await main();
} catch (e) {
  console.error(`\npackaging: ${e instanceof StepError ? e.message : (e as Error).stack}`);
  process.exit(1);
}
