/**
 * `pnpm test:packaging`: the packages as a user gets them. Packs every published package, installs
 * the tarballs with npm into a fresh project outside the workspace (no workspace links, no pnpm), and
 * runs there, as a user would type them, the checks of `CHECKS` (checks.ts), in their order.
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
import { ensureBuilt, PACKAGES } from '../build/ensure-built.ts';
import { CHECKS, type Found, found, type Project, seconds, step } from './checks.ts';
import { onStopSignal, run, type Started, StepError, signalGroup } from './commands.ts';
import { MSW_PEER, megabytes, userInstalls } from './install-weight.ts';
import { nodeBinary } from './node-versions.ts';
import { packAll, tarballSize } from './pack.ts';
import { RUNTIMES } from './runtime-matrix.ts';

const FIXTURES = fileURLToPath(new URL('fixtures', import.meta.url));

/** The test tools the project installs beside the tarballs: the versions this repository tests with. */
const TOOLS = ['vitest@5.1.1', 'vite@8.3.8', 'jest@30.5.2', 'esbuild@0.28.2', '@modelcontextprotocol/sdk@1.32.2'];

async function main() {
  await ensureBuilt();
  const work = mkdtempSync(join(tmpdir(), 'engagekit-packaging-'));
  const dir = join(work, 'partner-app');
  const servers: Started[] = [];
  // Stopped (Ctrl-C, or pnpm test when another check failed): its servers and files go too.
  onStopSignal(() => {
    for (const server of servers) signalGroup(server.child.pid, 'SIGKILL');
    if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  });
  try {
    const project = await install(work, dir, servers);
    const f: Found = {};
    for (const check of CHECKS) await check.run(project, f);
    printSummary(project, f);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    if (process.env.KEEP) console.log(`packaging: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** Packs every package and installs the tarballs, the test runners and the runtimes into `dir`; finds Node 22 and 24. */
async function install(work: string, dir: string, servers: Started[]): Promise<Project> {
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

  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'partner-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(dir, file));
  const installStarted = performance.now();
  await step(`npm install the ${PACKAGES.length} tarballs, the test runners and the runtimes of the SDK's matrix`, () =>
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES.map((p) => tarballs[p]), ...TOOLS, ...RUNTIMES], { cwd: dir, env }),
  );
  checkInstalledFromTarballs(dir);
  const node22 = await step('find Node 22 (from the npm registry when missing, beside that install)', () => findingNode22);
  const heldMs = process.argv.includes('--install-first') ? await waitForLine() : 0;
  const serverEnv = { ...env, PORT: '0', DATA_DIR: join(work, 'server-data'), ADMIN_TOKEN: 'packaging-admin-token-0123456789' };
  return { work, dir, tarballs, installs: userInstalls(tarballs), env, serverEnv, databaseUrl, node22, node24, servers, installStarted, heldMs };
}

/** What the run measured, once every check passed. */
function printSummary(p: Project, f: Found) {
  console.log('\npackaging: every step passed');
  console.log(`  npm install (with the matrix's runtimes) to the first green suite (Vitest): ${seconds(found(f.firstGreenMs, 'the first green suite'))}`);
  console.log(`  npx engagekit-server to its ready line, empty data directory: ${seconds(found(f.server, 'the server').readyMs)}`);
  for (const name of PACKAGES) {
    const size = tarballSize(p.tarballs[name]);
    console.log(
      `  @engagekit/${name}: ${(size.unpackedBytes / 1024).toFixed(0)} kB unpacked, ${(size.packedBytes / 1024).toFixed(0)} kB packed, ${size.files} files`,
    );
  }
  console.log('  what users download (fresh project, npm install; packages, node_modules, install time):');
  for (const [key, w] of Object.entries(found(f.weights, 'the install weights'))) {
    const line = `${p.installs[key as keyof typeof p.installs].id}: ${w.packages} packages, ${megabytes(w.bytes).toFixed(1)} MB, ${w.seconds.toFixed(1)} s`;
    console.log(`    ${key === 'msw' ? `${line} (the peer, ${MSW_PEER} alone)` : line}`);
  }
  const mcpWeight = found(f.mcpWeight, "the MCP server's install weight");
  console.log(
    `  ${p.installs.mcp.id}: ${mcpWeight.packages} packages, ${megabytes(mcpWeight.bytes).toFixed(1)} MB, ${mcpWeight.seconds.toFixed(1)} s (the MCP server alone, without the mock)`,
  );
  console.log("  the SDK's runtime matrix, against engagekit-server:");
  for (const line of found(f.matrix, "the runtime matrix's lines")) console.log(`    ${line}`);
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

try {
  await main();
} catch (e) {
  console.error(`\npackaging: ${e instanceof StepError ? e.message : (e as Error).stack}`);
  process.exit(1);
}
