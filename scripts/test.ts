/**
 * `pnpm test`: every check of the repository, each after what it needs. Three of them wait mostly on
 * the network or the disk, so they run beside the checks that keep the cores busy, their output held
 * until they join (scripts/beside.ts):
 *
 * - Chromium for the browser tests (Debian's package when it is missing: scripts/ensure-chromium.sh),
 *   beside the generated-files check, the build and the lints; it joins before Vitest.
 * - the release dry run (a copy of the repository, an install from the store, the packs), beside the
 *   lints.
 * - the packaging test's first half (the packs, one `npm install` of the tarballs with the test
 *   runners and the runtimes, Node 22 when missing), beside the lints and Vitest; its checks and the
 *   install weights run after Vitest, on their own.
 *
 * A check that fails ends the run with its exit code. The packaging test and the release dry run are
 * stopped then; an install of Chromium is left to finish, as apt-get stopped halfway leaves dpkg for
 * the user to repair.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Beside } from './beside.ts';
import { ROOT } from './build/ensure-built.ts';
import { onStopSignal } from './packaging/commands.ts';

const startedAt = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
const besides: Beside[] = [];

/** Stops what runs beside (but an install of Chromium) and exits with `code`. */
async function fail(code: number): Promise<never> {
  for (const job of besides) if (job !== chromium) job.stop();
  await chromium.exited;
  process.exit(code || 1);
}

// Its own group keeps what runs beside from the terminal's Ctrl-C: it is passed on here.
onStopSignal((signal) => {
  for (const job of besides) job.stop(signal);
});

function beside(name: string, command: string, args: string[], waitsForGo = false): Beside {
  console.log(`test: started beside the checks below: ${name}`);
  const job = new Beside(name, command, args, {
    cwd: ROOT,
    waitsForGo,
    onEarlyFailure: (failed, code, printed) => {
      console.error(`\ntest: ${failed.name} failed (exit ${code ?? 'by a signal'}); what it printed:\n${printed}`);
      void fail(code ?? 1);
    },
  });
  besides.push(job);
  return job;
}

/** A check in the foreground, printing as it goes, then how long it took; the run ends if it fails. */
async function check(name: string, command: string, args: string[]): Promise<void> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(127));
    child.on('close', (c) => resolve(c));
  });
  if (code !== 0) {
    console.error(`\ntest: \`${[command, ...args].join(' ')}\` failed (exit ${code ?? 'by a signal'})`);
    await fail(code ?? 1);
  }
  console.log(`test: ${name} took ${seconds(t0)}`);
}

/** `pnpm run <name>`, a script of package.json, as a check. */
const script = (name: string) => check(name, 'pnpm', ['run', name]);

async function joined(job: Beside): Promise<void> {
  await job.join().catch(async (e: Error) => {
    console.error(`\ntest: ${e.message}`);
    await fail(1);
  });
}

const chromium = beside('Chromium for the browser tests', 'bash', ['scripts/ensure-chromium.sh']);
await script('check:generated');
await script('lint:cycles');
await script('build');
// Both need the builds; the packaging test's packs and install run beside the lints and Vitest.
const release = beside('the release dry run', 'pnpm', ['run', 'release:dry-run']);
const packaging = beside('the packaging test (its install first; its checks after Vitest)', 'node', ['scripts/packaging/test.ts', '--install-first'], true);
await script('lint');
await script('lint:openapi');
await script('lint:packages');
await joined(release);
await joined(chromium);
// A worker a core: Vitest's default keeps one back, which on two cores runs the files one by one.
await check('vitest', join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--maxWorkers=100%']);
await joined(packaging);
console.log(`\ntest: every check passed in ${seconds(startedAt)}`);
